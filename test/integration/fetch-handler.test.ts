/**
 * @module fetch-handler.test
 * The same server core through the web-standard face, `createFetchHandler(app)`, with no socket:
 * each test hands it a `Request` and reads the `Response`, JSON or SSE, to the end.
 */
import { createServer, type McpServer } from '@tessera/core'
import { createFetchHandler, type FetchHandler } from '@tessera/core/http'
import { beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  capturingLogger,
  envelope,
  errorOf,
  type Json,
  McpHttpClient,
  META,
  requestParts,
  resultOf,
  SseReader,
  sleep,
  textOf,
  VERSION,
} from '../helpers/mcp-http.ts'

const URL_ = 'http://localhost/mcp'
const seen = {
  progressError: undefined as unknown,
  signalAborted: false,
  done: undefined as (() => void) | undefined,
}

function build(): McpServer {
  const app = createServer({
    name: 'it-fetch',
    version: '2.0.0',
    logger: capturingLogger(),
    handshake: false,
  })
  app.tool(
    'echo',
    { description: 'Echo text', input: z.object({ text: z.string() }) },
    ({ text }) => `echo: ${text}`,
  )
  app.tool('progress', { description: 'Reports progress' }, async (_args, ctx) => {
    for (const step of [1, 2, 3]) {
      ctx.progress(step, 3)
      await sleep(5)
    }
    return 'done'
  })
  app.tool(
    'ticker',
    { description: 'Reports progress for 300 ms', input: z.object({ lazySignal: z.boolean() }) },
    async ({ lazySignal }, ctx) => {
      // Reading the signal first is the usual pattern; `lazySignal` reads it only at the end.
      const early = lazySignal ? undefined : ctx.signal
      seen.progressError = undefined
      try {
        for (let i = 1; i <= 15; i++) {
          ctx.progress(i, 15)
          await sleep(20)
        }
      } catch (error) {
        seen.progressError = error
      }
      seen.signalAborted = (early ?? ctx.signal).aborted
      seen.done?.()
      return 'stopped'
    },
  )
  app.tool('wait-abort', { description: 'Waits for its signal' }, async (_args, ctx) => {
    await new Promise<void>((resolve) =>
      ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
    )
    seen.signalAborted = true
    seen.done?.()
    return 'aborted'
  })
  return app
}

let handler: FetchHandler
let client: McpHttpClient

beforeAll(() => {
  handler = createFetchHandler(build(), { maxBodyBytes: 4 * 1024 })
  // Runtimes that hand a fetch handler its requests set Host; a hand-built Request has none.
  client = new McpHttpClient(URL_, (url, init) =>
    handler(
      new Request(url, {
        ...init,
        headers: { host: 'localhost', ...(init.headers as Record<string, string>) },
      }),
    ),
  )
})

describe('createFetchHandler', () => {
  it('answersDiscover', async () => {
    const reply = await client.request('server/discover')
    expect(reply.status).toBe(200)
    const result = resultOf(reply)
    expect(result).toMatchObject({
      resultType: 'complete',
      supportedVersions: [VERSION],
      ttlMs: 0,
      cacheScope: 'private',
    })
    expect((result._meta as Json)[META.serverInfo]).toEqual({ name: 'it-fetch', version: '2.0.0' })
  })

  it('callsATool', async () => {
    const reply = await client.callTool('echo', { text: 'no socket' })
    expect(reply.contentType).toMatch(/^application\/json/)
    expect(textOf(resultOf(reply))).toBe('echo: no socket')
  })

  it('answersMalformedJsonWith32700And400', async () => {
    const reply = await client.postRaw('{"jsonrpc":"2.0",\n"id":1,\n"method":}')
    expect(reply.status).toBe(400)
    const error = errorOf(reply)
    expect(error.code).toBe(-32700)
    expect(error.message).toContain('line 3, column 10')
  })

  it('streamsProgressThenTheResultToTheEnd', async () => {
    const reply = await client.callTool('progress', {}, { meta: { progressToken: 7 } })
    expect(reply.contentType).toMatch(/^text\/event-stream/)
    expect(reply.headers.get('x-accel-buffering')).toBe('no')
    expect(reply.notifications.map((n) => (n.params as Json).progress)).toEqual([1, 2, 3])
    expect(reply.notifications.every((n) => (n.params as Json).progressToken === 7)).toBe(true)
    expect(textOf(resultOf(reply))).toBe('done')
  })

  it('refusesAForeignHostWith403', async () => {
    const { headers, body } = requestParts('server/discover', {})
    const response = await handler(
      new Request(URL_, { method: 'POST', headers: { ...headers, host: 'evil.example' }, body }),
    )
    expect(response.status).toBe(403)
    const payload = (await response.json()) as Json
    expect(payload).not.toHaveProperty('id')
  })

  it('refusesAForeignOriginWith403', async () => {
    const reply = await client.postRaw(requestParts('server/discover', {}).body, {
      origin: 'https://evil.example',
    })
    expect(reply.status).toBe(403)
  })

  it('answersAnOversizeStreamedBodyWith413', async () => {
    const chunk = new TextEncoder().encode(`{"pad":"${'x'.repeat(3_000)}`)
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk)
        controller.enqueue(chunk)
        controller.close()
      },
    })
    const { headers } = requestParts('server/discover', {})
    const init = {
      method: 'POST',
      headers: { ...headers, host: 'localhost' },
      body,
      duplex: 'half',
    } as RequestInit
    const response = await handler(new Request(URL_, init))
    expect(response.status).toBe(413)
  })

  it('abortsTheHandlerSignalWhenTheRequestIsAborted', async () => {
    const done = new Promise<void>((resolve) => {
      seen.done = resolve
    })
    seen.signalAborted = false
    const controller = new AbortController()
    const { headers, body } = requestParts('tools/call', { name: 'wait-abort', arguments: {} })
    void handler(
      new Request(URL_, {
        method: 'POST',
        headers: { ...headers, host: 'localhost' },
        body,
        signal: controller.signal,
      }),
    )
    await sleep(30)
    controller.abort()
    await Promise.race([done, sleep(1_000)])
    expect(seen.signalAborted).toBe(true)
  })

  it('answersGetWith405WhenModernOnly', async () => {
    const response = await handler(
      new Request(URL_, { method: 'GET', headers: { host: 'localhost', accept: 'text/event-stream' } }),
    )
    expect(response.status).toBe(405)
  })

  it('servesARequestBuiltFromALocalhostUrlWithoutAHostHeader', async () => {
    const { headers, body } = requestParts('server/discover', {})
    const response = await handler(new Request(URL_, { method: 'POST', headers, body }))
    expect(response.status).toBe(200)
  })

  async function cancelTickerAfterFirstProgress(lazySignal: boolean): Promise<void> {
    const done = new Promise<void>((resolve) => {
      seen.done = resolve
    })
    const params = { name: 'ticker', arguments: { lazySignal } }
    const { headers, body } = requestParts('tools/call', params, { meta: { progressToken: 'tick' } })
    const response = await handler(
      new Request(URL_, { method: 'POST', headers: { ...headers, host: 'localhost' }, body }),
    )
    const reader = new SseReader(response)
    expect((await reader.next())?.method).toBe('notifications/progress')
    await reader.cancel()
    await Promise.race([done, sleep(1_000)])
  }

  it('abortsAnEarlyReadSignalWhenTheClientCancelsTheStream', async () => {
    await cancelTickerAfterFirstProgress(false)
    expect(seen.signalAborted).toBe(true)
  })

  it('keepsProgressSilentAfterTheClientCancelledTheStream', async () => {
    await cancelTickerAfterFirstProgress(false)
    expect(seen.progressError).toBeUndefined()
  })

  it('abortsASignalFirstReadAfterTheClientCancelledTheStream', async () => {
    await cancelTickerAfterFirstProgress(true)
    expect(seen.signalAborted).toBe(true)
  })
})

describe('the envelope through the fetch face', () => {
  it('refusesMissingMetaWith400', async () => {
    const reply = await client.postRaw({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32602)
  })

  it('refusesAMethodHeaderMismatchWith400', async () => {
    const reply = await client.request('server/discover', {}, { headers: { 'mcp-method': 'tools/list' } })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32020)
  })

  it('keepsTheBodyAsTheSourceOfTruthForTheVersion', async () => {
    const reply = await client.postRaw({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/list',
      params: { _meta: envelope() },
    })
    expect(resultOf(reply).tools).toHaveLength(4)
  })
})
