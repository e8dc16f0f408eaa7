/**
 * @module limits.test
 * What a tool call may take and give, as a client meets it: arguments past a shape limit refused
 * with -32602 naming the limit (200 000 items in well under a second, the server answering on), a
 * result past its size a tool error the log explains, a handler past its deadline aborted and the
 * call refused, a single-use answer whose first run overran still acted on once, a task not bound
 * by the deadline; a tool's limits over the server's, one by one; bad limits refused when given.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fetchClient } from '../../../../../test/helpers/fetch-client.ts'
import { capturingLogger, errorOf, type Json, resultOf } from '../../../../../test/helpers/mcp-http.ts'
import { silentLogger } from '../../../../../test/helpers/silent-logger.ts'
import { createServer } from '../create-server.ts'
import { elicitForm } from '../mrtr/input-requests.ts'
import type { ServerOptions } from '../server.ts'

const echo = (args: unknown) => ({
  content: [{ type: 'text' as const, text: JSON.stringify(args).slice(0, 40) }],
})
const serve = (options: Partial<ServerOptions> = {}) =>
  createServer({ name: 'limits', version: '1.0.0', logger: silentLogger, ...options })

/** An object nested `depth` levels deep. */
function nested(depth: number): Json {
  let value: Json = {}
  for (let i = 1; i < depth; i++) value = { v: value }
  return value
}

describe('argument limits', () => {
  it('refusesArgumentsPastALimitNamingItBeforeTheSchemaRuns', async () => {
    const app = serve({ limits: { arguments: { maxDepth: 8, maxElements: 50, maxStringLength: 16 } } })
    app.tool('echo', { description: 'echoes', input: z.object({}).passthrough() }, echo)
    const client = fetchClient(app)
    const refused = async (args: Json) => errorOf(await client.callTool('echo', args))
    expect(await refused({ a: nested(8) })).toMatchObject({
      code: -32602,
      message: expect.stringContaining('nest deeper than 8 levels (limits.arguments.maxDepth)'),
    })
    expect((await refused({ list: Array.from({ length: 60 }, () => 1) })).message).toContain(
      'more than 50 elements (limits.arguments.maxElements)',
    )
    expect((await refused({ text: 'x'.repeat(17) })).message).toContain(
      'a string longer than 16 characters (limits.arguments.maxStringLength)',
    )
    expect((await refused({ ['k'.repeat(17)]: 1 })).message).toContain('limits.arguments.maxStringLength')
    expect(resultOf(await client.callTool('echo', { a: nested(7), text: 'x'.repeat(16) }))).toMatchObject({
      resultType: 'complete',
    })
  })

  it('refuses200000ItemsByTheDefaultLimitInWellUnderASecondAndAnswersOn', async () => {
    const app = serve().tool(
      'echo',
      { description: 'echoes', input: z.object({ list: z.array(z.number()) }) },
      echo,
    )
    const client = fetchClient(app)
    const started = performance.now()
    const reply = await client.callTool('echo', { list: new Array(200_000).fill(0) })
    expect(performance.now() - started).toBeLessThan(1000)
    expect(errorOf(reply).message).toContain('more than 100000 elements')
    expect(resultOf(await client.callTool('echo', { list: [1, 2] })).content).toBeDefined()
  })

  it('takesAToolsOwnLimitOverTheServersOneByOne', async () => {
    const app = serve({ limits: { arguments: { maxElements: 5, maxStringLength: 4 } } })
    app.tool('wide', { description: 'wide', limits: { arguments: { maxElements: 100 } } }, echo)
    const client = fetchClient(app)
    expect(resultOf(await client.callTool('wide', { list: [1, 2, 3, 4, 5, 6, 7] })).isError).toBeUndefined()
    expect(errorOf(await client.callTool('wide', { text: 'longer' })).message).toContain('maxStringLength')
  })

  it('refusesAMisspelledOrInvalidLimitWhenGiven', () => {
    expect(() => serve({ limits: { timeoutMS: 5 } as never })).toThrow(/timeoutMS.*timeoutMs/)
    expect(() => serve({ limits: { arguments: { maxDepht: 5 } as never } })).toThrow(/maxDepht/)
    expect(() => serve({ limits: { resultBytes: 0 } })).toThrow(RangeError)
    expect(() => serve().tool('t', { description: 't', limits: { timeoutMs: -1 } }, echo)).toThrow(
      "Tool 't': limits.timeoutMs must be a positive integer.",
    )
  })
})

describe('result limits', () => {
  it('turnsAResultPastItsSizeIntoAToolErrorAndLogsTheToolAndTheSize', async () => {
    const logger = capturingLogger()
    const app = serve({ logger, limits: { resultBytes: 1000 } })
    app.tool('big', { description: 'big' }, () => 'é'.repeat(600))
    app.tool('small', { description: 'small' }, () => 'é'.repeat(400))
    const client = fetchClient(app)
    const big = resultOf(await client.callTool('big'))
    expect(big).toMatchObject({ isError: true, content: [{ type: 'text' }] })
    expect((big.content as Json[])[0]!.text).toBe(
      "Tool 'big' produced a result too large to send (1239 bytes; the limit is 1000).",
    )
    expect(logger.entries).toContainEqual(
      expect.objectContaining({
        level: 'error',
        obj: { event: 'tool_result_too_large', tool: 'big', bytes: 1239, limit: 1000 },
      }),
    )
    const small = resultOf(await client.callTool('small'))
    expect((small.content as Json[])[0]!.text).toBe('é'.repeat(400))
  })
})

describe('deadlines', () => {
  it('abortsTheHandlersSignalAndRefusesTheCallWhenItsTimeIsUp', async () => {
    const logger = capturingLogger()
    let aborted: unknown
    const app = serve({ logger, limits: { timeoutMs: 40 } })
    app.tool('slow', { description: 'waits for its signal' }, (_args, ctx) => {
      return new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => {
          aborted = ctx.signal.reason
          reject(ctx.signal.reason)
        })
      })
    })
    app.tool('patient', { description: 'longer', limits: { timeoutMs: 400 } }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 80))
      return 'done'
    })
    const client = fetchClient(app)
    expect(errorOf(await client.callTool('slow'))).toMatchObject({
      code: -32603,
      message: "Tool 'slow' did not finish within 40 ms.",
    })
    expect(aborted).toMatchObject({ code: 'TESSERA_DEADLINE_EXCEEDED' })
    expect(logger.entries.filter((entry) => entry.obj.event === 'tool_deadline')).toHaveLength(1)
    expect(resultOf(await client.callTool('patient')).content).toEqual([{ type: 'text', text: 'done' }])
  })

  it('actsOnASingleUseAnswerOnceEvenWhenItsFirstRunOverran', async () => {
    let acted = 0
    const app = serve({ limits: { timeoutMs: 30 } })
    app.tool('deploy', { description: 'deploys once', singleUse: true }, async (_args, ctx) => {
      await ctx.ask('go', elicitForm({ message: 'Deploy?', schema: z.object({}) }))
      // Ignores its signal: the side effect lands after the deadline.
      await new Promise((resolve) => setTimeout(resolve, 120))
      acted++
      return 'deployed'
    })
    const client = fetchClient(app)
    const asked = resultOf(await client.callTool('deploy'))
    const answer = {
      requestState: asked.requestState,
      inputResponses: { go: { action: 'accept', content: {} } },
    }
    expect(errorOf(await client.callTool('deploy', {}, { extra: answer })).code).toBe(-32603)
    // While the first run holds the answer, a copy of it starts nothing.
    expect(resultOf(await client.callTool('deploy', {}, { extra: answer })).isError).toBeUndefined()
    await new Promise((resolve) => setTimeout(resolve, 200))
    const replayed = resultOf(await client.callTool('deploy', {}, { extra: answer }))
    expect(JSON.stringify(replayed.content)).toContain('Already accepted')
    expect(acted).toBe(1)
  })

  it('leavesATaskToItsLease', async () => {
    const app = serve({ limits: { timeoutMs: 20 } })
    app.tool('report', { description: 'a long report', task: 'optional' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 80))
      return 'report ready'
    })
    const client = fetchClient(app)
    const caps = { extensions: { 'io.modelcontextprotocol/tasks': {} } }
    const started = resultOf(await client.callTool('report', {}, { caps }))
    expect(started.resultType).toBe('task')
    const id = started.taskId as string
    let task: Json = {}
    for (let i = 0; i < 40 && task.status !== 'completed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      task = resultOf(await client.request('tasks/get', { taskId: id }, { caps }))
    }
    expect(task.status).toBe('completed')
  })
})
