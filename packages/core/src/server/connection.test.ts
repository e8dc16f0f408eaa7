/**
 * @module connection.test
 * One client on a two-way message stream (what stdio hands the server), in both eras, driven
 * through the server's door with no stream at all: a request without `_meta` before
 * `initialize` is refused, `initialize` opens the connection's session (or is refused on a server
 * without the handshake era), requests without `_meta` then run in it while 2026-07-28 requests
 * are still served statelessly, a server-to-client elicitation is written out and answered by a
 * response message, `notifications/cancelled` stops the request it names in either era, and the
 * session's list changes reach the client until the connection closes.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { envelope, type Json } from '../../../../test/helpers/mcp-http.ts'
import { silentLogger } from '../../../../test/helpers/silent-logger.ts'
import { readMessage } from '../protocol/jsonrpc/parse.ts'
import { createServer } from './create-server.ts'
import { doorOf } from './door.ts'
import type { McpServer } from './mcp-server.ts'
import { elicitForm } from './mrtr/input-requests.ts'

const INIT = {
  protocolVersion: '2025-11-25',
  capabilities: { elicitation: {} },
  clientInfo: { name: 'connection-test', version: '0.0.1' },
}

function build(options: { handshake?: false } = {}) {
  /** The signal of each `wait` call, by request id. */
  const started = new Map<string, AbortSignal>()
  const app = createServer({ name: 'conn', version: '1.0.0', logger: silentLogger, ...options })
  app.tool(
    'echo',
    { description: 'Echo', input: z.object({ text: z.string() }) },
    ({ text }) => `echo: ${text}`,
  )
  app.tool('ask', { description: 'Asks a name' }, async (_args, ctx) => {
    const answer = await ctx.ask(
      'name',
      elicitForm({ message: 'Name?', schema: z.object({ name: z.string() }) }),
    )
    return answer.action === 'accept' ? `hello ${answer.content.name}` : `no: ${answer.action}`
  })
  app.tool('wait', { description: 'Runs until cancelled' }, (_args, ctx) => {
    started.set(String(ctx.request.id), ctx.signal)
    return new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => resolve('aborted')))
  })
  return { app, started }
}

/** A connection whose every written message is kept, decoded from its wire text. */
function connect(app: McpServer) {
  const lines: Json[] = []
  const connection = doorOf(app, 'connection.test').connect((message) => {
    lines.push(JSON.parse(typeof message === 'string' ? message : JSON.stringify(message)) as Json)
  })
  const send = (message: Json) => {
    const parsed = readMessage({ jsonrpc: '2.0', ...message })
    if (!parsed.ok) throw parsed.error
    connection.receive(parsed.value)
  }
  /** The first written message matching `match`, polled until a deadline. */
  const next = async (match: (message: Json) => boolean, timeoutMs = 2_000): Promise<Json> => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = lines.find(match)
      if (found) return found
      if (Date.now() > deadline) throw new Error(`nothing matched; written: ${JSON.stringify(lines)}`)
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  }
  const reply = (id: string | number) => next((m) => m.id === id && !('method' in m))
  return { lines, send, reply, next, close: () => connection.close() }
}

async function until(check: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

const modern = (params: Json = {}) => ({ ...params, _meta: envelope() })
const call = (name: string, args: Json = {}) => ({ name, arguments: args })
const textOf = (message: Json) => ((message.result as Json).content as Array<{ text: string }>)[0]!.text

describe('before initialize', () => {
  it('refusesARequestWithoutMetaWith32602', async () => {
    const { send, reply } = connect(build().app)
    send({ id: 1, method: 'tools/list' })
    expect(await reply(1)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'Invalid params: _meta is required.' },
    })
  })

  it('servesA2026RequestStatelessly', async () => {
    const { send, reply } = connect(build().app)
    send({ id: 1, method: 'tools/call', params: modern(call('echo', { text: 'hi' })) })
    const result = (await reply(1)).result as Json
    expect(result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'echo: hi' }] })
  })

  it('ignoresAResponseAndASessionNotificationWhileNoSessionIsOpen', async () => {
    const { lines, send, close } = connect(build().app)
    send({ id: 's-unknown', result: { action: 'accept' } })
    send({ method: 'notifications/initialized' })
    await close()
    expect(lines).toEqual([])
  })

  it('refusesInitializeWith32022NamingTheSupportedVersionsWhenTheHandshakeEraIsOff', async () => {
    const { send, reply } = connect(build({ handshake: false }).app)
    send({ id: 'init', method: 'initialize', params: INIT })
    expect((await reply('init')).error).toEqual({
      code: -32022,
      message: 'Unsupported protocol version: this server speaks 2026-07-28 only.',
      data: { supported: ['2026-07-28'], requested: '2025-11-25' },
    })
    send({ id: 2, method: 'tools/list' })
    expect(((await reply(2)).error as Json).code).toBe(-32602)
  })

  it('opensNoSessionForAnInitializeItRefuses', async () => {
    const { send, reply } = connect(build().app)
    send({ id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25' } })
    expect((await reply('init')).error).toEqual({
      code: -32602,
      message: 'Invalid params: initialize needs capabilities.',
    })
    send({ id: 2, method: 'tools/list' })
    expect(((await reply(2)).error as Json).message).toBe('Invalid params: _meta is required.')
  })
})

describe('after initialize', () => {
  it('servesTheRequestsRightAfterInitializeInTheSessionWithoutMeta', async () => {
    const { send, reply } = connect(build().app)
    // No await in between: the request after initialize must already find the session.
    send({ id: 'init', method: 'initialize', params: INIT })
    send({ id: 2, method: 'tools/list' })
    const init = (await reply('init')).result as Json
    expect(init).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'conn' } })
    const list = (await reply(2)).result as Json
    expect((list.tools as Json[]).map((tool) => tool.name)).toEqual(['echo', 'ask', 'wait'])
    expect(list).not.toHaveProperty('resultType')
    expect(list).not.toHaveProperty('ttlMs')
  })

  it('stillServesA2026RequestStatelesslyWhileTheSessionIsOpen', async () => {
    const { lines, send, reply } = connect(build().app)
    send({ id: 'init', method: 'initialize', params: INIT })
    send({ id: 2, method: 'tools/call', params: modern(call('ask')) })
    const result = (await reply(2)).result as Json
    // The 2026-07-28 way to ask: an input_required result, never a request to the client.
    expect(result.resultType).toBe('input_required')
    expect(Object.keys(result.inputRequests as Json)).toEqual(['name'])
    send({ id: 3, method: 'tools/call', params: call('echo', { text: 'in session' }) })
    const inSession = (await reply(3)).result as Json
    expect(inSession).not.toHaveProperty('resultType')
    expect(lines.some((m) => m.method === 'elicitation/create')).toBe(false)
  })

  it('writesAnElicitationToTheClientAndCompletesWithTheResponseLine', async () => {
    const { send, reply, next } = connect(build().app)
    send({ id: 'init', method: 'initialize', params: INIT })
    send({ id: 3, method: 'tools/call', params: call('ask') })
    const ask = await next((m) => m.method === 'elicitation/create')
    expect(ask).toMatchObject({ jsonrpc: '2.0', params: { mode: 'form', message: 'Name?' } })
    expect(String(ask.id)).toMatch(/^s-/)
    send({ id: ask.id as string, result: { action: 'accept', content: { name: 'Ada' } } })
    expect(textOf(await reply(3))).toBe('hello Ada')
  })

  it('replacesTheSessionOnASecondInitialize', async () => {
    const { lines, send, reply } = connect(build().app)
    send({ id: 'init', method: 'initialize', params: INIT })
    // The client restarted without elicitation: the new session's capabilities are the ones used.
    send({ id: 'again', method: 'initialize', params: { ...INIT, capabilities: {} } })
    send({ id: 3, method: 'tools/call', params: call('ask') })
    expect(((await reply(3)).error as Json).code).toBe(-32602)
    expect(lines.some((m) => m.method === 'elicitation/create')).toBe(false)
  })

  it('sendsTheSessionItsListChangesUntilTheConnectionCloses', async () => {
    const { app } = build()
    const { lines, send, reply, next, close } = connect(app)
    doorOf(app, 'connection.test').opened()
    send({ id: 'init', method: 'initialize', params: INIT })
    await reply('init')
    app.tool('late', { description: 'Registered while serving' }, () => 'late')
    expect(await next((m) => m.method === 'notifications/tools/list_changed')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: {},
    })
    await close()
    const written = lines.length
    app.tool('later', { description: 'Registered after close' }, () => 'later')
    await new Promise((resolve) => setImmediate(resolve))
    expect(lines).toHaveLength(written)
  })

  it('sendsNoListChangesToAConnectionWithoutASession', async () => {
    const { app } = build()
    const { lines, send, reply } = connect(app)
    doorOf(app, 'connection.test').opened()
    send({ id: 1, method: 'tools/list', params: modern() })
    await reply(1)
    app.tool('late', { description: 'Registered while serving' }, () => 'late')
    await new Promise((resolve) => setImmediate(resolve))
    expect(lines.map((m) => m.method)).toEqual([undefined])
  })
})

describe('notifications/cancelled', () => {
  it('stopsAnInSessionRequestAndWritesNothingForIt', async () => {
    const { app, started } = build()
    const { lines, send, reply, close } = connect(app)
    send({ id: 'init', method: 'initialize', params: INIT })
    send({ id: 9, method: 'tools/call', params: call('wait') })
    await until(() => started.has('9'))
    send({ method: 'notifications/cancelled', params: { requestId: 9 } })
    await close()
    await reply('init')
    expect(lines.filter((m) => m.id === 9)).toEqual([])
  })

  it('stopsA2026RequestAndWritesNothingForIt', async () => {
    const { app, started } = build()
    const { lines, send, close } = connect(app)
    send({ id: 'w', method: 'tools/call', params: modern(call('wait')) })
    await until(() => started.has('w'))
    send({ method: 'notifications/cancelled', params: { requestId: 'w' } })
    await close()
    expect(lines).toEqual([])
  })

  it('leavesARequestWhoseIdOnlyLooksTheSameRunning', async () => {
    const { app, started } = build()
    const { send, reply, close } = connect(app)
    send({ id: 7, method: 'tools/call', params: modern(call('wait')) })
    await until(() => started.has('7'))
    send({ method: 'notifications/cancelled', params: { requestId: '7' } })
    send({ id: 8, method: 'tools/list', params: modern() })
    await reply(8)
    expect(started.get('7')!.aborted).toBe(false)
    send({ method: 'notifications/cancelled', params: { requestId: 7 } })
    await close()
    expect(started.get('7')!.aborted).toBe(true)
  })
})
