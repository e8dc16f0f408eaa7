/**
 * @module tasks-eras.test
 * Tasks exist in 2026-07-28 only. Over real HTTP: a 2025-11-25 session calling a tool that runs
 * only as a task gets its result synchronously (a question inside it is a real elicitation), the
 * session has no `tasks/*` methods, and a 2026-07-28 request on the same endpoint gets a task.
 */
import { createServer, elicitForm } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { acceptWith, errorOf, HandshakeClient, resultOf, textOf } from '../helpers/handshake-client.ts'
import { capturingLogger, McpHttpClient, resultOf as modernResult } from '../helpers/mcp-http.ts'
import { pollTask, TASK_CAPS } from '../helpers/tasks.ts'

let running: RunningServer

beforeAll(async () => {
  const app = createServer({ name: 'tasks-eras', version: '1.0.0', logger: capturingLogger() })
  app.tool('deploy', { description: 'only as a task', task: 'required' }, async (_a, ctx) => {
    const answer = await ctx.ask(
      'sure',
      elicitForm({ message: 'Sure?', schema: z.object({ sure: z.boolean() }) }),
    )
    const where = ctx.task === undefined ? 'synchronously' : 'as a task'
    return answer.action === 'accept' && answer.content.sure ? `deployed ${where}` : 'not deployed'
  })
  running = await listen(app, { host: '127.0.0.1', port: 0 })
})

afterAll(() => running.close())

describe('tasks across the two eras', () => {
  it('answersAHandshakeSessionSynchronouslyWithARealElicitation', async () => {
    const session = await HandshakeClient.connect(running.url)
    const reply = await session.callTool('deploy', {}, { onRequest: acceptWith({ sure: true }) })
    expect(reply.requests.map((r) => r.method)).toEqual(['elicitation/create'])
    expect(textOf(resultOf(reply))).toBe('deployed synchronously')
    expect(resultOf(reply)).not.toHaveProperty('resultType')
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      expect(errorOf(await session.request(method, { taskId: 'x' })).code).toBe(-32601)
    }
  })

  it('givesA2026ClientOnTheSameEndpointATask', async () => {
    const client = new McpHttpClient(running.url)
    const created = modernResult(await client.callTool('deploy', {}, { caps: TASK_CAPS }))
    expect(created.resultType).toBe('task')
    const taskId = String(created.taskId)
    await pollTask(client, taskId, ['input_required'])
    await client.request(
      'tasks/update',
      { taskId, inputResponses: { sure: { action: 'accept', content: { sure: true } } } },
      { caps: TASK_CAPS },
    )
    expect(textOf((await pollTask(client, taskId)).result as Record<string, unknown>)).toBe(
      'deployed as a task',
    )
  })
})
