/**
 * @module tasks-bounds.test
 * Task records are bounded, over real HTTP: a task keeps the client's capability declarations and
 * identity fields, not what the client padded them with; a call or an answer that would make a
 * record larger than `tasks.maxRecordBytes` is refused and stores nothing; and a principal keeps
 * at most `tasks.maxPerPrincipal` tasks, the next call refused with 429 while other principals
 * go on.
 */
import { type AuthInfo, createServer, elicitForm } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { memoryTaskStore } from '@tessera/core/ports'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  bearer,
  bearerJsonAuth,
  capturingLogger,
  errorOf,
  McpHttpClient,
  META,
  resultOf,
} from '../helpers/mcp-http.ts'
import { pollTask, TASK_CAPS, TASKS_EXTENSION } from '../helpers/tasks.ts'

const tasks = memoryTaskStore()
let running: RunningServer
let client: McpHttpClient
const as = (subject: string) => bearer({ subject, issuer: 'https://id.example' } as AuthInfo)
const PADDING = 'x'.repeat(300_000)

beforeAll(async () => {
  const app = createServer({
    name: 'it-task-bounds',
    version: '1.0.0',
    logger: capturingLogger(),
    stores: { tasks },
    tasks: { maxPerPrincipal: 3, maxRecordBytes: 16_384 },
  })
  app.tool(
    'note',
    { description: 'keeps a note, asking first', input: z.object({ note: z.string() }), task: 'required' },
    async ({ note }, ctx) => {
      await ctx.ask('why', elicitForm({ message: 'Why?', schema: z.object({ why: z.string() }) }))
      return `noted ${note.length}`
    },
  )
  running = await listen(app, { host: '127.0.0.1', port: 0, auth: bearerJsonAuth, maxBodyBytes: 4_000_000 })
  client = new McpHttpClient(running.url)
})

afterAll(() => running.close())

describe('task records are bounded', () => {
  it('keepsTheDeclarationsOfPaddedCapabilitiesAndClientInfoNotThePadding', async () => {
    const caps = {
      elicitation: { form: { padding: PADDING } },
      sampling: { padding: PADDING },
      extensions: { [TASKS_EXTENSION]: { padding: PADDING } },
      padding: PADDING,
    }
    const clientInfo = { name: 'probe', version: '1.0.0', padding: PADDING }
    const reply = await client.callTool(
      'note',
      { note: 'short' },
      { caps, meta: { [META.clientInfo]: clientInfo }, headers: as('padder') },
    )
    const taskId = String(resultOf(reply).taskId)
    const stored = await tasks.get(taskId)
    expect(stored?.call.clientCapabilities).toEqual({
      elicitation: { form: {} },
      sampling: {},
      extensions: { [TASKS_EXTENSION]: {} },
    })
    expect(stored?.call.clientInfo).toEqual({ name: 'probe', version: '1.0.0' })
    expect(JSON.stringify(stored).length).toBeLessThan(4096)
  })

  it('refusesACallWhoseTaskWouldBeLargerThanTheBoundAndStoresNothing', async () => {
    const reply = await client.callTool(
      'note',
      { note: 'y'.repeat(20_000) },
      { caps: TASK_CAPS, headers: as('big') },
    )
    expect(reply.status).toBe(200)
    expect(errorOf(reply)).toMatchObject({ code: -32602 })
    expect(errorOf(reply).message).toMatch(/at most 16384 are kept/)
    const others = await client.callTool('note', { note: 'ok' }, { caps: TASK_CAPS, headers: as('big') })
    expect(resultOf(others).resultType).toBe('task')
  })

  it('refusesAnAnswerThatWouldMakeTheRecordTooLargeAndKeepsTheTaskWaiting', async () => {
    const headers = as('answerer')
    const taskId = String(
      resultOf(await client.callTool('note', { note: 'n' }, { caps: TASK_CAPS, headers })).taskId,
    )
    await pollTask(client, taskId, ['input_required'], { headers })
    const huge = { why: { action: 'accept', content: { why: 'z'.repeat(20_000) } } }
    const refused = await client.request(
      'tasks/update',
      { taskId, inputResponses: huge },
      { caps: TASK_CAPS, headers },
    )
    expect(errorOf(refused)).toMatchObject({ code: -32602 })
    expect((await pollTask(client, taskId, ['input_required'], { headers })).status).toBe('input_required')
    const fine = { why: { action: 'accept', content: { why: 'because' } } }
    await client.request('tasks/update', { taskId, inputResponses: fine }, { caps: TASK_CAPS, headers })
    expect((await pollTask(client, taskId, undefined, { headers })).status).toBe('completed')
  })

  it('refusesAPrincipalItsFourthKeptTaskWith429WhileOthersGoOn', async () => {
    const headers = as('busy')
    for (let i = 0; i < 3; i++) {
      const reply = await client.callTool('note', { note: `n${i}` }, { caps: TASK_CAPS, headers })
      expect(resultOf(reply).resultType).toBe('task')
    }
    const refused = await client.callTool('note', { note: 'n3' }, { caps: TASK_CAPS, headers })
    expect(refused.status).toBe(429)
    expect(errorOf(refused)).toMatchObject({ code: -32600 })
    expect(errorOf(refused).message).toMatch(/^Too many tasks: a principal may keep 3 at once/)
    const other = await client.callTool('note', { note: 'n' }, { caps: TASK_CAPS, headers: as('idle') })
    expect(resultOf(other).resultType).toBe('task')
  })
})
