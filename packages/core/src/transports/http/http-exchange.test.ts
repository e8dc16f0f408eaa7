/**
 * @module http-exchange.test
 * The exchange of one 2026-07-28 HTTP request, through the fetch face: a reply stays plain JSON
 * until the handler sends a notification (progress or log); the first one turns it into an SSE
 * stream at once, while the handler still runs, and the stream ends with the response. A client
 * that aborts the request or cancels the stream aborts `ctx.signal`; one that leaves after the
 * response does not, and what a handler sends after its response goes nowhere.
 */
import { describe, expect, it } from 'vitest'
import { fetchClient } from '../../../../../test/helpers/fetch-client.ts'
import { type Json, readReply, resultOf, textOf } from '../../../../../test/helpers/mcp-http.ts'
import { silentLogger } from '../../../../../test/helpers/silent-logger.ts'
import { sseBlocks } from '../../../../../test/helpers/sse-events.ts'
import { createServer } from '../../server/create-server.ts'

function deferred<T = void>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

/** Rejects when `promise` takes longer than `ms`, naming what did not happen. */
function within<T>(promise: Promise<T>, what: string, ms = 2_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

const frame = (message: Json) => `event: message\ndata: ${JSON.stringify(message)}`
const progress = (token: string, value: number, total?: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params:
    total === undefined
      ? { progressToken: token, progress: value }
      : { progressToken: token, progress: value, total },
})

function serve() {
  const gate = deferred()
  const started = deferred<AbortSignal>()
  const aborted = deferred<unknown>()
  const kept: { signal?: AbortSignal; late?: (n: number) => void } = {}
  const app = createServer({
    name: 'exchange',
    version: '1.0.0',
    logger: silentLogger,
    logging: true,
    handshake: false,
  })
  app.tool('quiet', { description: 'Sends nothing before its result' }, () => 'quiet')
  app.tool('steps', { description: 'Progress, a pause, progress' }, async (_args, ctx) => {
    ctx.progress(1, 2)
    await gate.promise
    ctx.progress(2, 2)
    return 'stepped'
  })
  app.tool('chatty', { description: 'Logs once' }, (_args, ctx) => {
    ctx.log('info', 'hello')
    return 'logged'
  })
  app.tool('watch', { description: 'Runs until its signal aborts' }, async (_args, ctx) => {
    ctx.progress(1)
    started.resolve(ctx.signal)
    await new Promise<void>((resolve) =>
      ctx.signal.addEventListener('abort', () => {
        aborted.resolve(ctx.signal.reason)
        resolve()
      }),
    )
    return 'aborted'
  })
  app.tool('keep', { description: 'Keeps its signal and its progress' }, (_args, ctx) => {
    kept.signal = ctx.signal
    kept.late = (n) => ctx.progress(n)
    ctx.progress(1)
    return 'kept'
  })
  return { client: fetchClient(app), gate, started, aborted, kept }
}

describe('lazy SSE', () => {
  it('answersAsPlainJsonWhenTheHandlerSendsNoNotification', async () => {
    const { client } = serve()
    const reply = await client.callTool('quiet', {}, { meta: { progressToken: 't' } })
    expect(reply.status).toBe(200)
    expect(reply.contentType).toBe('application/json')
    expect(textOf(resultOf(reply))).toBe('quiet')
  })

  it('switchesToSseAtTheFirstNotificationWhileTheHandlerStillRuns', async () => {
    const { client, gate } = serve()
    const response = await within(
      client.open('tools/call', { name: 'steps', arguments: {} }, { id: 5, meta: { progressToken: 'p' } }),
      'the response before the handler finished',
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform')
    expect(response.headers.get('x-accel-buffering')).toBe('no')
    const stream = sseBlocks(response)
    expect(await stream.next()).toBe(frame(progress('p', 1, 2)))
    gate.resolve()
    expect(await stream.next()).toBe(frame(progress('p', 2, 2)))
    const last = await stream.next()
    expect(last).toMatch(/^event: message\ndata: /)
    const response5 = JSON.parse(last!.slice('event: message\ndata: '.length)) as Json
    expect(response5).toMatchObject({ jsonrpc: '2.0', id: 5, result: { resultType: 'complete' } })
    expect(textOf(response5.result as Json)).toBe('stepped')
    expect(await stream.next()).toBeUndefined()
  })

  it('streamsALogMessageAndThenTheResponse', async () => {
    const { client } = serve()
    const reply = await client.callTool(
      'chatty',
      {},
      { meta: { 'io.modelcontextprotocol/logLevel': 'info' } },
    )
    expect(reply.contentType).toBe('text/event-stream')
    expect(reply.notifications).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hello' } },
    ])
    expect(textOf(resultOf(reply))).toBe('logged')
  })

  it('staysJsonWhenTheHandlerLogsBelowTheRequestedLevel', async () => {
    const { client } = serve()
    const reply = await client.callTool(
      'chatty',
      {},
      { meta: { 'io.modelcontextprotocol/logLevel': 'error' } },
    )
    expect(reply.contentType).toBe('application/json')
  })
})

describe('the signal', () => {
  it('abortsWhenTheClientAbortsTheRequestBeforeAJsonReply', async () => {
    const { client, started, aborted } = serve()
    const controller = new AbortController()
    // No progress token: the handler's progress is a no-op and the reply would be JSON.
    void client.open('tools/call', { name: 'watch', arguments: {} }, { signal: controller.signal })
    const signal = await within(started.promise, 'the handler starting')
    expect(signal.aborted).toBe(false)
    controller.abort()
    const reason = await within(aborted.promise, 'the handler signal aborting')
    expect((reason as Error).message).toBe('client disconnected')
  })

  it('abortsWhenTheClientCancelsTheSseStream', async () => {
    const { client, aborted } = serve()
    const response = await client.open(
      'tools/call',
      { name: 'watch', arguments: {} },
      { meta: { progressToken: 'w' } },
    )
    const stream = sseBlocks(response)
    expect(await stream.next()).toBe(frame(progress('w', 1)))
    await stream.cancel()
    const reason = await within(aborted.promise, 'the handler signal aborting')
    expect((reason as Error).message).toBe('client disconnected')
  })

  it('staysUnabortedWhenTheClientLeavesAfterTheResponse', async () => {
    const { client, kept } = serve()
    const controller = new AbortController()
    const response = await client.open(
      'tools/call',
      { name: 'keep', arguments: {} },
      { signal: controller.signal },
    )
    const reply = await readReply(response)
    expect(textOf(resultOf(reply))).toBe('kept')
    controller.abort()
    expect(kept.signal?.aborted).toBe(false)
  })

  it('sendsNothingAHandlerEmitsAfterItsResponseOnAnEndedStream', async () => {
    const { client, kept } = serve()
    const reply = await client.callTool('keep', {}, { meta: { progressToken: 'k' } })
    expect(reply.contentType).toBe('text/event-stream')
    expect(reply.notifications).toEqual([progress('k', 1)])
    expect(() => kept.late?.(2)).not.toThrow()
  })
})
