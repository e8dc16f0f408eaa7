/**
 * @module tasks-two-instances.test
 * Two instances of one server over real HTTP on 127.0.0.1, sharing only Redis (task store and
 * bus; TESSERA_TEST_REDIS_URL, skipped without it): a task created on one is polled and answered
 * on the other, runs again where its last answer arrived, is cancelled from the first (the
 * instance running it hears of it through the bus and its handler stops), and a listen stream on
 * the first follows what happens on the second.
 */
import { randomBytes } from 'node:crypto'
import { createServer, elicitForm, type McpServer } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { generateStateKey } from '@tessera/core/request-state'
import { redisStores } from '@tessera/store-redis'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { capturingLogger, McpHttpClient, paramsOf, resultOf, SseReader } from '../helpers/mcp-http.ts'
import { pollTask, TASK_CAPS } from '../helpers/tasks.ts'

const url = process.env['TESSERA_TEST_REDIS_URL']
const skip = url ? undefined : 'TESSERA_TEST_REDIS_URL is not set'
if (skip) process.stderr.write(`tasks-two-instances tests skipped: ${skip}\n`)
const prefix = `tessera-test:${randomBytes(6).toString('hex')}:`
const keys = [generateStateKey('two-instances')]

interface Instance {
  name: string
  app: McpServer
  running: RunningServer
  client: McpHttpClient
  ran: string[]
  stopped: string[]
}

async function instance(name: string): Promise<Instance> {
  const ran: string[] = []
  const stopped: string[] = []
  const app = createServer({
    name: 'two-instances',
    version: '1.0.0',
    logger: capturingLogger(),
    requestState: { keys },
    stores: redisStores({ url: url!, prefix }),
  })
  app.tool(
    'approve_then_work',
    { description: 'asks, then works until cancelled', task: 'optional' },
    async (_a, ctx) => {
      const answer = await ctx.ask(
        'go',
        elicitForm({ message: 'Go?', schema: z.object({ go: z.boolean() }) }),
      )
      ran.push(answer.action)
      await new Promise<void>((_, reject) =>
        ctx.signal.addEventListener('abort', () => {
          stopped.push(String(ctx.task?.id))
          reject(ctx.signal.reason)
        }),
      )
      return 'never'
    },
  )
  const running = await listen(app, { host: '127.0.0.1', port: 0 })
  return { name, app, running, client: new McpHttpClient(running.url), ran, stopped }
}

describe.skipIf(skip !== undefined)('tasks on two instances sharing Redis', () => {
  let a: Instance
  let b: Instance

  beforeAll(async () => {
    a = await instance('a')
    b = await instance('b')
  })

  afterAll(async () => {
    await a?.running.close()
    await b?.running.close()
    const admin = new Redis(url!)
    const left = await admin.keys(`${prefix}*`)
    if (left.length > 0) await admin.del(...left)
    await admin.quit()
  })

  it('createsOnOneAndPollsAnswersAndCancelsOnTheOther', async () => {
    const created = resultOf(await a.client.callTool('approve_then_work', {}, { caps: TASK_CAPS }))
    const taskId = String(created.taskId)
    const listenResponse = await a.client.open(
      'subscriptions/listen',
      { notifications: { taskIds: [taskId] } },
      { caps: TASK_CAPS, id: 'follow' },
    )
    const stream = new SseReader(listenResponse)
    expect(paramsOf(await stream.next()).notifications).toEqual({ taskIds: [taskId] })

    const waiting = await pollTask(b.client, taskId, ['input_required'])
    expect(Object.keys(waiting.inputRequests as object)).toEqual(['go'])
    await b.client.request(
      'tasks/update',
      { taskId, inputResponses: { go: { action: 'accept', content: { go: true } } } },
      { caps: TASK_CAPS },
    )
    await pollTask(a.client, taskId, ['working'])
    // The last answer arrived on b: b runs the task now, a never ran past the question.
    await expect.poll(() => b.ran).toEqual(['accept'])
    expect(a.ran).toEqual([])

    await a.client.request('tasks/cancel', { taskId }, { caps: TASK_CAPS })
    expect((await pollTask(a.client, taskId)).status).toBe('cancelled')
    expect(b.stopped).toEqual([taskId])
    expect(a.stopped).toEqual([])

    const statuses: string[] = []
    while (!statuses.includes('cancelled')) {
      const message = await stream.next(3000)
      expect(message?.method).toBe('notifications/tasks')
      statuses.push(String(paramsOf(message).status))
    }
    expect(statuses).toContain('working')
    await stream.cancel()
  })
})
