/**
 * @module serve-stdio.test
 * The stdio framing, over in-memory streams: one message per input line (however the chunks
 * fall) and one line per answer, an over-long line answered -32600 and a broken one -32700 with
 * its line and column, `notifications/cancelled` stopping the request it names, end of input
 * ending listen subscriptions at once while requests in flight still answer before the returned
 * promise resolves, and nothing but JSON-RPC ever written to the output stream.
 */
import { once } from 'node:events'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { capturingLogger, envelope, type Json } from '../../../../../test/helpers/mcp-http.ts'
import { silentLogger } from '../../../../../test/helpers/silent-logger.ts'
import { createServer } from '../../server/create-server.ts'
import type { McpServer } from '../../server/mcp-server.ts'
import { type StdioOptions, serveStdio } from './serve-stdio.ts'

function build(logger = silentLogger) {
  const state = { started: [] as string[], release: () => {} }
  const gate = new Promise<void>((resolve) => {
    state.release = resolve
  })
  const app = createServer({ name: 'stdio', version: '1.0.0', logger, handshake: false })
  app.tool('noop', { description: 'Answers at once' }, () => 'ok')
  app.tool('slow', { description: 'Answers when released' }, async () => {
    state.started.push('slow')
    await gate
    return 'released'
  })
  app.tool('wait', { description: 'Runs until cancelled' }, (_args, ctx) => {
    state.started.push(String(ctx.request.id))
    return new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => resolve('aborted')))
  })
  app.tool('broken', { description: 'Throws' }, () => {
    throw new Error('secret connection string')
  })
  return { app, state }
}

/** serveStdio over in-memory streams, with everything written to the output kept as text. */
function start(app: McpServer, options: Omit<StdioOptions, 'input' | 'output'> = {}) {
  const input = new PassThrough()
  const output = new PassThrough()
  let written = ''
  output.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8')
  })
  let ended = false
  const done = serveStdio(app, { input, output, ...options }).then(() => {
    ended = true
  })
  const lines = () => written.split('\n').slice(0, -1)
  const messages = () => lines().map((line) => JSON.parse(line) as Json)
  const next = async (match: (message: Json) => boolean): Promise<Json> => {
    const deadline = Date.now() + 2_000
    for (;;) {
      const found = messages().find(match)
      if (found) return found
      if (Date.now() > deadline) throw new Error(`no matching line; output: ${written.slice(0, 500)}`)
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  }
  return {
    input,
    written: () => written,
    lines,
    messages,
    next,
    reply: (id: string | number) => next((m) => m.id === id && !('method' in m)),
    send: (message: Json) => input.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`),
    done,
    ended: () => ended,
  }
}

const meta = { _meta: envelope() }
const call = (name: string) => ({ name, arguments: {}, ...meta })

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 2_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

describe('framing', () => {
  it('readsOneMessagePerLineHoweverTheChunksFallAndAnswersEachOnOneLine', async () => {
    const io = start(build().app)
    const request = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: meta })
    io.input.write(`${request(1)}\n\n${request(2)}\r\n   \n${request(3).slice(0, 20)}`)
    io.input.write(`${request(3).slice(20)}\n`)
    await Promise.all([1, 2, 3].map((id) => io.reply(id)))
    io.input.end()
    await io.done
    expect(io.written().endsWith('\n')).toBe(true)
    expect(io.messages().map((m) => m.id)).toEqual([1, 2, 3])
    for (const message of io.messages()) expect((message.result as Json).resultType).toBe('complete')
  })

  it('answersALineLongerThanTheLimitInBytesWith32600AndGoesOn', async () => {
    const short = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: meta })
    const long = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { ...meta, pad: 'é'.repeat(40) },
    })
    // The limit is in bytes: the long line has fewer characters than the limit, but more bytes.
    const io = start(build().app, { maxLineBytes: long.length })
    io.input.write(`${long}\n${short}\n`)
    await io.reply(2)
    expect(io.lines()[0]).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: the line is too long."}}',
    )
    expect(io.messages()).toHaveLength(2)
  })

  it('answersBrokenJsonWith32700NamingWhereItBrokeAndBadShapesWith32600', async () => {
    const io = start(build().app)
    io.input.write('{"jsonrpc":"2.0","id":1,"method":}\n')
    io.send({ id: 3 })
    io.send({ id: 4, method: 'tools/list', params: meta })
    await io.reply(4)
    expect(io.messages().slice(0, 2)).toEqual([
      {
        jsonrpc: '2.0',
        error: { code: -32700, message: 'Parse error: invalid JSON at line 1, column 34.' },
      },
      { jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'Invalid request: no method.' } },
    ])
  })

  it('refusesABadLineLimitOrAnythingButAServerWhenCalled', () => {
    const { app } = build()
    const streams = { input: new PassThrough(), output: new PassThrough() }
    expect(() => serveStdio(app, { ...streams, maxLineBytes: 0 })).toThrow(
      new RangeError('maxLineBytes must be a positive integer.'),
    )
    expect(() => serveStdio({} as McpServer, streams)).toThrow(TypeError)
  })
})

describe('cancellation and end of input', () => {
  it('stopsTheRequestNamedByNotificationsCancelledAndNeverAnswersIt', async () => {
    const { app, state } = build()
    const io = start(app)
    io.send({ id: 5, method: 'tools/call', params: call('wait') })
    await until(() => state.started.includes('5'))
    io.send({ method: 'notifications/cancelled', params: { requestId: 5, reason: 'user' } })
    io.input.end()
    await io.done
    expect(io.messages()).toEqual([])
  })

  it('endsListenSubscriptionsAtEndOfInputButWaitsForRequestsInFlight', async () => {
    const { app, state } = build()
    const io = start(app)
    io.send({
      id: 'l',
      method: 'subscriptions/listen',
      params: { notifications: { toolsListChanged: true }, ...meta },
    })
    await io.next((m) => m.method === 'notifications/subscriptions/acknowledged')
    app.tool('first', { description: 'Registered while listening' }, () => 'first')
    await io.next((m) => m.method === 'notifications/tools/list_changed')
    io.send({ id: 's', method: 'tools/call', params: call('slow') })
    await until(() => state.started.includes('slow'))
    io.input.end()
    await once(io.input, 'end')
    app.tool('second', { description: 'Registered after end of input' }, () => 'second')
    await new Promise((resolve) => setImmediate(resolve))
    expect(io.messages().filter((m) => m.method === 'notifications/tools/list_changed')).toHaveLength(1)
    expect(io.ended()).toBe(false)
    state.release()
    await io.done
    const last = io.messages().at(-1)!
    expect(last).toMatchObject({ id: 's', result: { content: [{ type: 'text', text: 'released' }] } })
  })

  it('resolvesAtEndOfInputWhenNothingIsInFlight', async () => {
    const io = start(build().app)
    io.input.end()
    await io.done
    expect(io.written()).toBe('')
  })
})

describe('the output stream', () => {
  it('carriesNothingButJsonRpcMessagesWhileTheServerLogs', async () => {
    const logger = capturingLogger()
    const io = start(build(logger).app)
    io.send({ id: 1, method: 'tools/call', params: call('broken') })
    io.send({ id: 2, method: 'no/such/method', params: meta })
    io.input.write('not json\n')
    io.send({ id: 3, method: 'tools/call', params: call('noop') })
    await io.reply(3)
    io.input.end()
    await io.done
    expect(io.lines()).toHaveLength(4)
    for (const line of io.lines()) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' })
    expect(io.written()).not.toContain('secret')
    const failed = logger.entries.find((entry) => entry.obj.event === 'tool_failed')
    expect(failed).toMatchObject({ obj: { err: { message: 'secret connection string' } } })
  })
})

describe('the principal', () => {
  function scoped() {
    const app = createServer({ name: 'stdio', version: '1.0.0', logger: silentLogger, handshake: false })
    app.tool(
      'whoami',
      { description: 'Names the caller', scopes: ['ops:read'] },
      (_a, ctx) => `${ctx.auth?.subject}`,
    )
    return app
  }

  it('servesTheConfiguredPrincipalToHandlersAndScopeChecks', async () => {
    const io = start(scoped(), { auth: { issuer: 'local', subject: 'ann', scopes: ['ops:read'] } })
    io.send({ id: 1, method: 'tools/call', params: call('whoami') })
    expect(((await io.reply(1)).result as Json).content).toEqual([{ type: 'text', text: 'ann' }])
    io.input.end()
    await io.done
  })

  it('refusesAScopedCallWithoutAPrincipal', async () => {
    const io = start(scoped())
    io.send({ id: 1, method: 'tools/call', params: call('whoami') })
    expect(((await io.reply(1)).error as Json).data).toEqual({ requiredScopes: ['ops:read'] })
    io.input.end()
    await io.done
  })
})
