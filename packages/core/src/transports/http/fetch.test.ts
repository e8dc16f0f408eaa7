/**
 * @module fetch.test
 * The web-standard face, `createFetchHandler`, on its own: the request's signal is read only when
 * something follows it; another path is a 404 JSON error and the header block is limited (431); a
 * Request built without `Host` is judged by the host of its URL; an authenticator reads headers as
 * `Headers.get` answers them; a body that cannot be read is a logged 500, bad arguments throw when
 * the handler is created, a stream whose client is gone ends, and a Worker's `waitUntil` is handed
 * the request's handling. The body's own limits are in `fetch-body.test.ts`.
 */
import { describe, expect, it } from 'vitest'
import { capturingLogger, readReply, requestParts } from '../../../../../test/helpers/mcp-http.ts'
import { unchecked } from '../../../../../test/helpers/unchecked.ts'
import { memoryNotificationBus, type NotificationBus } from '../../ports.ts'
import type { McpServer } from '../../server/mcp-server.ts'
import { createFetchHandler } from './fetch.ts'
import { app, fault, handlerOf, headerBytes, LIST, post, URL_ } from './fetch-handler.fixture.ts'

describe('the request signal', () => {
  // Deno warns on the first read of a signal it also aborts after a served response.
  it('isNeverReadForARequestAnsweredAtOnce', async () => {
    const reads: string[] = []
    const handler = handlerOf()
    for (const parts of [LIST, requestParts('tools/call', { name: 'noop', arguments: {} }, { id: 2 })]) {
      const request = new Request(URL_, { method: 'POST', headers: parts.headers, body: parts.body })
      Object.defineProperty(request, 'signal', {
        get: () => {
          reads.push(parts.body)
          return new AbortController().signal
        },
      })
      expect((await handler(request)).status).toBe(200)
    }
    expect(reads).toEqual([])
  })

  it('stillEndsAHandlerWhoseClientLeft', async () => {
    const server = app()
    let aborted!: (reason: unknown) => void
    const seen = new Promise((resolve) => {
      aborted = resolve
    })
    server.tool('wait', { description: 'Waits for its client to leave' }, async (_args, ctx) => {
      ctx.signal.addEventListener('abort', () => aborted(ctx.signal.reason))
      await seen
      return 'left'
    })
    const controller = new AbortController()
    const call = requestParts('tools/call', { name: 'wait', arguments: {} }, { id: 3 })
    const replied = post(createFetchHandler(server), { ...call, signal: controller.signal })
    setTimeout(() => controller.abort(), 20)
    expect(String(await seen)).toContain('client disconnected')
    await replied
  })
})

describe('routing and limits', () => {
  it('answersAnotherPathWith404AndAJsonError', async () => {
    for (const path of ['/other', '/mcp/', '/MCP', '/']) {
      const reply = await readReply(await post(handlerOf(), { url: `http://127.0.0.1${path}` }))
      expect(reply.status).toBe(404)
      expect(reply.contentType).toBe('application/json')
      expect(reply.body).toEqual(fault(-32600, 'Not found.'))
    }
  })

  it('matchesThePathWithoutItsQueryAndHonoursAConfiguredPath', async () => {
    expect((await post(handlerOf(), { url: `${URL_}?trace=1` })).status).toBe(200)
    const custom = handlerOf({ path: '/rpc' })
    expect((await post(custom, { url: 'http://127.0.0.1/rpc' })).status).toBe(200)
    expect((await post(custom)).status).toBe(404)
  })

  it('refusesAHeaderBlockOneByteOverTheLimitWith431BeforeCheckingTheHost', async () => {
    const headers = { ...LIST.headers, host: 'evil.example', 'x-pad': 'x'.repeat(200) }
    const size = headerBytes(new Request(URL_, { method: 'POST', headers, body: LIST.body }).headers)
    const atLimit = await post(handlerOf({ maxHeaderBytes: size }), { headers })
    expect(atLimit.status).toBe(403)
    const over = await readReply(await post(handlerOf({ maxHeaderBytes: size - 1 }), { headers }))
    expect(over.status).toBe(431)
    expect(over.body).toEqual(fault(-32600, 'Request header fields too large.'))
  })
})

describe("a Worker's request context", () => {
  it('handsTheRequestsHandlingToTheContextsWaitUntil', async () => {
    const kept: Promise<unknown>[] = []
    const handler = handlerOf()
    const response = await handler(
      new Request(URL_, { method: 'POST', ...LIST }),
      {},
      {
        waitUntil: (work) => kept.push(work),
      },
    )
    expect(response.status).toBe(200)
    expect(kept).toHaveLength(1)
    await expect(Promise.all(kept)).resolves.toBeDefined()
  })

  it('readsNothingFromWhatBunAndDenoPassAfterTheRequest', async () => {
    const handler = handlerOf()
    for (const [second, third] of [
      [{ upgrade() {} }, undefined],
      [{ remoteAddr: {} }, {}],
      [undefined, { waitUntil: 1 }],
    ]) {
      const response = await handler(new Request(URL_, { method: 'POST', ...LIST }), second, unchecked(third))
      expect(response.status).toBe(200)
    }
  })
})

describe('the Host of a Request', () => {
  it('takesTheHostFromTheUrlWhenTheRequestHasNone', async () => {
    expect((await post(handlerOf(), { url: 'http://localhost:8080/mcp' })).status).toBe(200)
    const foreign = await readReply(await post(handlerOf(), { url: 'http://evil.example/mcp' }))
    expect(foreign.status).toBe(403)
    expect(foreign.body).toEqual(
      fault(-32600, "Forbidden: Host 'evil.example' is not allowed: add it to allowedHosts."),
    )
    const publicHost = handlerOf({ allowedHosts: ['api.example.com'] })
    expect((await post(publicHost, { url: 'https://api.example.com:8443/mcp' })).status).toBe(200)
  })

  it('letsAHostHeaderWinOverTheUrl', async () => {
    const local = await post(handlerOf(), { url: 'http://evil.example/mcp', headers: { host: 'localhost' } })
    expect(local.status).toBe(200)
    const forged = await post(handlerOf(), { headers: { host: 'evil.example' } })
    expect(forged.status).toBe(403)
  })
})

describe('the headers an authenticator reads', () => {
  it('areWhatHeadersGetAnswersForEveryNamePresentOrNot', async () => {
    const headers = new Headers({ ...LIST.headers, authorization: 'Bearer t', 'x-trace': 'a' })
    headers.append('x-trace', 'b')
    headers.append('set-cookie', 'one=1')
    headers.append('set-cookie', 'two=2')
    const names = new Set(['origin', 'mcp-session-id', 'cookie'])
    headers.forEach((_, name) => {
      names.add(name)
    })
    const seen = new Map<string, string | undefined>()
    const handler = createFetchHandler(app(), {
      auth: {
        authenticate: (request) => {
          for (const name of names) seen.set(name, request.headers.get(name))
          return { subject: 'reader' }
        },
      },
    })
    const response = await handler(new Request(URL_, { method: 'POST', headers, body: LIST.body }))
    expect(response.status).toBe(200)
    for (const name of names) expect(seen.get(name), name).toBe(headers.get(name) ?? undefined)
    expect(seen.get('x-trace')).toBe('a, b')
    expect(seen.get('set-cookie')).toBe('one=1, two=2')
  })
})

describe('failures and misuse', () => {
  it('answers500AndLogsTheCauseWhenTheBodyCannotBeRead', async () => {
    const logger = capturingLogger()
    const handler = createFetchHandler(app({ logger }))
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('connection reset by peer'))
      },
    })
    const reply = await readReply(await post(handler, { body: broken }))
    expect(reply.status).toBe(500)
    expect(reply.body).toEqual(fault(-32603, 'Internal error.'))
    expect(reply.raw).not.toContain('reset')
    const logged = logger.entries.find((entry) => entry.obj.event === 'http_failed')
    expect(logged).toMatchObject({ level: 'error', obj: { err: { message: 'connection reset by peer' } } })
  })

  it('throwsWhenCreatedForAnythingButAServerOrWithBadOptions', () => {
    expect(() => createFetchHandler({} as McpServer)).toThrow(
      new TypeError('createFetchHandler needs a server made by createServer().'),
    )
    expect(() => handlerOf({ maxBodyBytes: 0 })).toThrow(RangeError)
    expect(() => handlerOf({ maxHeaderBytes: 1.5 })).toThrow(RangeError)
    expect(() => handlerOf({ auth: unchecked({ authenticate: 'yes' }) })).toThrow(TypeError)
  })
})

describe('a listen stream whose client is gone', () => {
  /** A bus that counts the subscriptions still open. */
  function countingBus() {
    const bus = memoryNotificationBus()
    const counter = { open: 0 }
    const counting: NotificationBus = {
      ...bus,
      subscribe(listener) {
        counter.open++
        const unsubscribe = bus.subscribe(listener)
        let done = false
        return () => {
          if (done) return
          done = true
          counter.open--
          unsubscribe()
        }
      },
    }
    return { counting, counter }
  }

  const listen = requestParts(
    'subscriptions/listen',
    { notifications: { toolsListChanged: true } },
    { id: 'l' },
  )

  async function until(check: () => boolean, what: string, ms = 2_000): Promise<void> {
    const deadline = Date.now() + ms
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`)
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  }

  it('endsTheSubscriptionWhenTheClientCancelsTheStream', async () => {
    const { counting, counter } = countingBus()
    const handler = createFetchHandler(app({ bus: counting }))
    const response = await post(handler, { headers: listen.headers, body: listen.body })
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    expect(counter.open).toBe(1)
    await response.body!.cancel()
    await until(() => counter.open === 0, 'the subscription ending')
  })

  // A close callback registered after the client left (here, during authentication) still runs.
  it('endsTheSubscriptionOfAClientThatLeftWhileItWasBeingAuthenticated', async () => {
    const { counting, counter } = countingBus()
    let release!: () => void
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    let authenticating!: () => void
    const started = new Promise<void>((resolve) => {
      authenticating = resolve
    })
    const handler = createFetchHandler(app({ bus: counting }), {
      auth: {
        authenticate: async () => {
          authenticating()
          await gate
          return undefined
        },
      },
    })
    const controller = new AbortController()
    const replied = post(handler, { headers: listen.headers, body: listen.body, signal: controller.signal })
    await started
    controller.abort()
    release()
    await replied
    await until(() => counter.open === 0, 'the subscription ending', 500)
  })
})
