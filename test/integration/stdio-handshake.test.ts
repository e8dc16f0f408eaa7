/**
 * @module stdio-handshake.test
 * The handshake era on stdio, in a real child process running `serveStdio`: a request before
 * `initialize` is refused the modern way (-32602), `initialize` switches the process into the
 * handshake era, a tool that elicits sends `elicitation/create` on stdout and completes when the
 * test answers on stdin, and modern lines (with `_meta`) on the same process are still answered
 * the modern way.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Json } from '../helpers/handshake-client.ts'
import { envelope } from '../helpers/mcp-http.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** The child's server, as plain JavaScript (tsx resolves the TypeScript packages it imports). */
const SERVER = `
import { createServer, elicitForm } from '@tessera/core'
import { serveStdio } from '@tessera/core/stdio'
const silentLogger = { debug() {}, info() {}, warn() {}, error() {} }
const app = createServer({ name: 'it-stdio', version: '1.0.0', logger: silentLogger, logging: true })
app.tool('echo', { description: 'Echo', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
  ({ text }) => 'echo: ' + text)
app.tool('ask', { description: 'Elicits a name' }, async (_args, ctx) => {
  const answer = await ctx.ask('name', elicitForm({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }))
  return answer.action === 'accept' ? 'hello ' + answer.content.name : 'refused: ' + answer.action
})
app.tool('chatty', { description: 'Logs' }, (_args, ctx) => {
  ctx.log('info', 'an info line')
  ctx.log('error', 'an error line')
  return 'logged'
})
await serveStdio(app)
`

/** A child process speaking newline-delimited JSON-RPC, with every stdout line kept in order. */
class StdioChild {
  readonly child: ChildProcessWithoutNullStreams
  readonly lines: Json[] = []
  private cursor = 0
  private waiters = new Set<() => void>()
  stderr = ''
  exited: Promise<number | null>

  constructor() {
    this.child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SERVER], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8')
    })
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.lines.push(JSON.parse(line) as Json)
      for (const wake of this.waiters) wake()
    })
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)))
  }

  send(message: Json): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`)
  }

  /** The next stdout message (in order) matching `match`; earlier non-matching ones are skipped. */
  async next(match: (message: Json) => boolean = () => true, timeoutMs = 10_000): Promise<Json> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      while (this.cursor < this.lines.length) {
        const message = this.lines[this.cursor++]!
        if (match(message)) return message
      }
      const remaining = deadline - Date.now()
      if (remaining <= 0)
        throw new Error(
          `no matching stdout line within ${timeoutMs} ms; stderr: ${this.stderr.slice(0, 500)}`,
        )
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, remaining)
        function done() {
          clearTimeout(timer)
          resolve()
        }
        this.waiters.add(done)
      })
      this.waiters.clear()
    }
  }

  /** Sends a request and waits for the response with its id. */
  async request(id: number | string, method: string, params?: Json): Promise<Json> {
    const message: Json = { jsonrpc: '2.0', id, method }
    if (params !== undefined) message.params = params
    this.send(message)
    return this.next((m) => m.id === id && !('method' in m))
  }

  /** Lines written since the last `next`, matching `match`. */
  pending(match: (message: Json) => boolean): Json[] {
    return this.lines.slice(this.cursor).filter(match)
  }

  async close(): Promise<number | null> {
    this.child.stdin.end()
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000)
    const code = await this.exited
    clearTimeout(timer)
    return code
  }
}

const initialize = (protocolVersion = '2025-11-25') => ({
  protocolVersion,
  capabilities: { elicitation: {} },
  clientInfo: { name: 'stdio-it', version: '0.0.1' },
})
const modernParams = (params: Json = {}) => ({ ...params, _meta: envelope() })

let fresh: StdioChild
let session: StdioChild

beforeAll(async () => {
  fresh = new StdioChild()
  session = new StdioChild()
  const init = await session.request('init', 'initialize', initialize())
  expect((init.result as Json).protocolVersion).toBe('2025-11-25')
  session.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
}, 30_000)

afterAll(async () => {
  await Promise.all([fresh?.close(), session?.close()])
})

describe('before initialize', () => {
  it('refusesA2025RequestWithoutMetaBeforeInitializeWith32602AndServesAModernOne', async () => {
    const refused = await fresh.request(1, 'tools/list')
    expect((refused.error as Json).code).toBe(-32602)
    const modern = await fresh.request(2, 'tools/list', modernParams())
    expect((modern.result as Json).resultType).toBe('complete')
    const call = await fresh.request(
      3,
      'tools/call',
      modernParams({ name: 'echo', arguments: { text: 'x' } }),
    )
    expect((call.result as Json).content).toEqual([{ type: 'text', text: 'echo: x' }])
    // Still not a session: a second 2025-11-25 request is refused the same way.
    expect(((await fresh.request(4, 'ping')).error as Json).code).toBe(-32602)
  })
})

describe('after initialize', () => {
  it('serves2025RequestsWithoutResultTypeOrCacheHints', async () => {
    const list = await session.request(10, 'tools/list')
    const result = list.result as Json
    expect((result.tools as Json[]).map((t) => t.name)).toEqual(['echo', 'ask', 'chatty'])
    expect(result).not.toHaveProperty('resultType')
    expect(result).not.toHaveProperty('ttlMs')
    expect((await session.request(11, 'ping')).result).toStrictEqual({})
    const call = (await session.request(12, 'tools/call', { name: 'echo', arguments: { text: 'handshake' } }))
      .result as Json
    expect(call.content).toEqual([{ type: 'text', text: 'echo: handshake' }])
    expect(call).not.toHaveProperty('resultType')
  })

  it('sendsElicitationCreateOnStdoutAndCompletesWhenTheAnswerComesOnStdin', async () => {
    session.send({ jsonrpc: '2.0', id: 20, method: 'tools/call', params: { name: 'ask', arguments: {} } })
    const request = await session.next((m) => m.method === 'elicitation/create')
    expect(request).toMatchObject({ jsonrpc: '2.0', params: { mode: 'form', message: 'Your name?' } })
    expect(request.id).toBeDefined()
    expect(session.pending((m) => m.id === 20)).toEqual([])
    session.send({ jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { name: 'Ada' } } })
    const done = await session.next((m) => m.id === 20)
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'hello Ada' }] })
    expect(done.result).not.toHaveProperty('resultType')
  })

  it('readsAnErrorReplyToElicitationCreateAsACancel', async () => {
    session.send({ jsonrpc: '2.0', id: 21, method: 'tools/call', params: { name: 'ask', arguments: {} } })
    const request = await session.next((m) => m.method === 'elicitation/create')
    session.send({ jsonrpc: '2.0', id: request.id, error: { code: -32603, message: 'dialog closed' } })
    const done = await session.next((m) => m.id === 21)
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'refused: cancel' }] })
  })

  it('stopsACallOnNotificationsCancelledWhileItWaitsForAnAnswerWithNoResponse', async () => {
    session.send({ jsonrpc: '2.0', id: 22, method: 'tools/call', params: { name: 'ask', arguments: {} } })
    const request = await session.next((m) => m.method === 'elicitation/create')
    session.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 22 } })
    // A ping afterwards is answered; no response for the cancelled call came before or with it.
    await session.request(23, 'ping')
    await new Promise((resolve) => setTimeout(resolve, 200))
    session.send({ jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { name: 'late' } } })
    await session.request(24, 'ping')
    expect(session.lines.filter((m) => m.id === 22)).toEqual([])
  })

  it('appliesLoggingSetLevelToLaterCalls', async () => {
    expect((await session.request(30, 'logging/setLevel', { level: 'error' })).result).toStrictEqual({})
    session.send({ jsonrpc: '2.0', id: 31, method: 'tools/call', params: { name: 'chatty', arguments: {} } })
    const log = await session.next((m) => m.method === 'notifications/message')
    expect(log.params).toEqual({ level: 'error', data: 'an error line' })
    await session.next((m) => m.id === 31)
    expect(session.lines.filter((m) => m.method === 'notifications/message')).toHaveLength(1)
  })

  it('stillAnswersAModernLineWithMetaTheModernWayOnTheSameProcess', async () => {
    const list = (await session.request(40, 'tools/list', modernParams())).result as Json
    expect(list.resultType).toBe('complete')
    expect(list.ttlMs).toBeTypeOf('number')
    const discover = (await session.request(41, 'server/discover', modernParams())).result as Json
    expect(discover.supportedVersions).toContain('2026-07-28')
    // A modern call that asks gets input_required, never a real request on stdout.
    const before = session.lines.filter((m) => m.method === 'elicitation/create').length
    const asked = (await session.request(42, 'tools/call', modernParams({ name: 'ask', arguments: {} })))
      .result as Json
    expect(asked.resultType).toBe('input_required')
    expect(Object.values(asked.inputRequests as Json)[0]).toMatchObject({ method: 'elicitation/create' })
    expect(session.lines.filter((m) => m.method === 'elicitation/create')).toHaveLength(before)
  })

  it('answersAReInitializeRequesting2026With2025', async () => {
    const again = await session.request(50, 'initialize', initialize('2026-07-28'))
    expect((again.result as Json).protocolVersion).toBe('2025-11-25')
  })

  it('exitsCleanlyWhenStdinCloses', async () => {
    const child = new StdioChild()
    await child.request(1, 'initialize', initialize())
    expect(await child.close()).toBe(0)
  })
})
