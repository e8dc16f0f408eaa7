/**
 * @module call-limits.test
 * The limits of a tool call over real HTTP on 127.0.0.1: 200 000 items refused with -32602 naming
 * the limit in well under a second while the server answers on, a result past its size a tool
 * error, a handler past its deadline refused with -32603 and its signal aborted.
 */
import { createServer } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { errorOf, McpHttpClient, resultOf } from '../helpers/mcp-http.ts'
import { silentLogger } from '../helpers/silent-logger.ts'

let running: RunningServer
let client: McpHttpClient
let abortedBy: unknown

beforeAll(async () => {
  const app = createServer({
    name: 'limits',
    version: '1.0.0',
    logger: silentLogger,
    limits: { resultBytes: 64 * 1024, timeoutMs: 200 },
  })
  app.tool('sum', { description: 'adds', input: z.object({ values: z.array(z.number()) }) }, ({ values }) =>
    String(values.reduce((a, b) => a + b, 0)),
  )
  app.tool('dump', { description: 'too much' }, () => 'x'.repeat(100_000))
  app.tool('hang', { description: 'waits for its signal' }, (_args, ctx) => {
    return new Promise((_resolve, reject) =>
      ctx.signal.addEventListener('abort', () => {
        abortedBy = ctx.signal.reason
        reject(ctx.signal.reason)
      }),
    )
  })
  running = await listen(app, { port: 0 })
  client = new McpHttpClient(running.url)
})

afterAll(async () => {
  await running?.close()
})

describe('call limits over HTTP', () => {
  it('refuses200000ItemsNamingTheLimitQuicklyAndAnswersOn', async () => {
    const started = performance.now()
    const reply = await client.callTool('sum', { values: new Array(200_000).fill(1) })
    expect(performance.now() - started).toBeLessThan(1000)
    expect(reply.status).toBe(200)
    expect(errorOf(reply)).toMatchObject({
      code: -32602,
      message: expect.stringContaining('more than 100000 elements (limits.arguments.maxElements)'),
    })
    expect(resultOf(await client.callTool('sum', { values: [1, 2, 3] })).content).toEqual([
      { type: 'text', text: '6' },
    ])
  })

  it('answersAResultPastItsSizeWithAToolError', async () => {
    const result = resultOf(await client.callTool('dump'))
    expect(result).toMatchObject({ isError: true, resultType: 'complete' })
    expect(JSON.stringify(result.content)).toContain('too large to send (100039 bytes; the limit is 65536)')
  })

  it('refusesACallPastItsDeadlineAndAbortsItsSignal', async () => {
    const reply = await client.callTool('hang')
    expect(reply.status).toBe(200)
    expect(errorOf(reply)).toMatchObject({
      code: -32603,
      message: "Tool 'hang' did not finish within 200 ms.",
    })
    expect(abortedBy).toMatchObject({ code: 'TESSERA_DEADLINE_EXCEEDED' })
  })
})
