/**
 * @module fuzz-server
 * What the fuzz suites run against and what they hold every answer to. The server has a tool of
 * each kind (plain, mirrored headers, asking and single-use, throwing with a secret in its error,
 * a resource, a prompt), a key whose secret must never show, and a handler error whose message
 * must never show. `checkAnswer` is the invariant: a JSON-RPC 2.0 response whose error code and
 * HTTP status are a pair the error table allows, with no stack trace and no secret in it.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createServer, elicitForm, type McpServer } from '@tessera/core'
import { wireMappings } from '@tessera/core/protocol'
import type { StateKey } from '@tessera/core/request-state'
import { expect } from 'vitest'
import { z } from 'zod'
import { silentLogger } from '../helpers/silent-logger.ts'

export const KEY_SECRET = 'fuzz-key-secret-that-must-never-appear-0123456789'
export const HANDLER_SECRET = 'handler-secret-that-must-never-appear'
const KEY: StateKey = { id: 'fuzz', secret: KEY_SECRET }

export const SECRETS = [KEY_SECRET, HANDLER_SECRET]

export function fuzzServer(): McpServer {
  const app = createServer({
    name: 'fuzz',
    version: '1.0.0',
    logger: silentLogger,
    requestState: { keys: [KEY] },
  })
  app.tool(
    'echo',
    { description: 'echo', input: z.object({ text: z.string().max(100) }) },
    ({ text }) => text,
  )
  app.tool(
    'mirrored',
    {
      description: 'mirrored',
      input: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
        required: ['region'],
      },
    },
    () => 'ok',
  )
  app.tool('confirm', { description: 'asks first', singleUse: true }, async (_a, ctx) => {
    const answer = await ctx.ask(
      'ok',
      elicitForm({ message: 'Sure?', schema: z.object({ ok: z.boolean() }) }),
    )
    return answer.action === 'accept' ? 'done' : 'not done'
  })
  app.tool('fails', { description: 'throws' }, () => {
    throw new Error(HANDLER_SECRET)
  })
  app.resource('fuzz://doc', { name: 'doc' }, (uri) => ({ contents: [{ uri, text: 'doc' }] }))
  app.prompt('brief', { description: 'prompt', args: z.object({ topic: z.string() }) }, ({ topic }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: topic } }],
  }))
  return app
}

/** The (JSON-RPC code, HTTP status) pairs the error table allows on the wire, besides 200. */
const ALLOWED = new Set(
  Object.values(wireMappings).flatMap((m) => [
    `${m.jsonrpc}/${m.http}`,
    ...('handshake' in m ? [`${m.handshake}/${m.http}`] : []),
  ]),
)

const STACK = /\n\s+at [^\n]+:\d+:\d+/

/** Holds one answer (its status and its body text) to the invariants; `what` names the input for the failure message. */
export function checkAnswer(status: number, body: string, what: string): void {
  expect(status, what).toBeLessThan(500)
  for (const secret of SECRETS) expect(body, what).not.toContain(secret)
  expect(STACK.test(body), what).toBe(false)
  if (body.trim() === '') return
  for (const message of messagesOf(body)) {
    expect(message.jsonrpc, what).toBe('2.0')
    const error = message.error as { code?: unknown; message?: unknown } | undefined
    if (error === undefined) continue
    expect(Number.isInteger(error.code), what).toBe(true)
    expect(typeof error.message, what).toBe('string')
    if (status !== 200)
      expect(ALLOWED.has(`${error.code}/${status}`), `${what}: ${error.code}/${status}`).toBe(true)
  }
}

/** The JSON-RPC messages of a body: one JSON object, or the `data:` lines of an event stream. */
function messagesOf(body: string): Record<string, unknown>[] {
  const trimmed = body.trim()
  if (trimmed.startsWith('{')) return [JSON.parse(trimmed) as Record<string, unknown>]
  const out: Record<string, unknown>[] = []
  for (const line of body.split('\n')) {
    if (line.startsWith('data:')) {
      const data = line.slice(5).trim()
      if (data !== '') out.push(JSON.parse(data) as Record<string, unknown>)
    }
  }
  return out
}

/**
 * The heap in use after a full collection. Measured once the fuzzing is warm (modules loaded,
 * code compiled, pools filled), so what it grows by afterwards is what the requests left behind.
 */
export function heapAfterGc(): number {
  setFlagsFromString('--expose-gc')
  ;(runInNewContext('gc') as () => void)()
  return process.memoryUsage().heapUsed
}

/** Most the heap may grow by between the warm baseline and the end of a fuzz run. */
export const HEAP_GROWTH_LIMIT = 4 * 1024 * 1024

export const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MiB`
