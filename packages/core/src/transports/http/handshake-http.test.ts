/**
 * @module handshake-http.test
 * Streamable HTTP of 2025-11-25 through the fetch face, with no socket: `initialize` names the
 * session it opened in `Mcp-Session-Id` (or answers 503 when none can be opened), the session is
 * bound to its principal (another principal's request is answered like one for an unknown id),
 * DELETE ends it and its GET stream, the GET stream starts with a priming event carrying an id
 * and `retry`, `Last-Event-ID` resumes a POST stream only for the session that owns it, a bad
 * `MCP-Protocol-Version` in a session is 400, and errors inside a session travel on 200.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  bearer,
  bearerJsonAuth,
  type Json,
  readReply,
  resultOf,
} from '../../../../../test/helpers/mcp-http.ts'
import { silentLogger } from '../../../../../test/helpers/silent-logger.ts'
import { sseBlocks } from '../../../../../test/helpers/sse-events.ts'
import { type EventStore, memoryEventStore } from '../../ports.ts'
import { createServer } from '../../server/create-server.ts'
import { memorySessionStore } from '../../server/handshake/session-store.ts'
import { createFetchHandler, type FetchHandler } from './fetch.ts'

const URL_ = 'http://127.0.0.1/mcp'
const ALICE = { issuer: 'https://idp.example', clientId: 'app', subject: 'alice' }
const MALLORY = { issuer: 'https://idp.example', clientId: 'app', subject: 'mallory' }
type Who = typeof ALICE | undefined

function serve(options: { maxSessions?: number; events?: EventStore } = {}) {
  const sessions = memorySessionStore({ maxSessions: options.maxSessions })
  const stores = { sessions, events: options.events }
  const app = createServer({ name: 'handshake-http', version: '1.0.0', logger: silentLogger, stores })
  app.tool('echo', { description: 'Echo', input: z.object({ text: z.string() }) }, ({ text }) => text)
  app.tool('steps', { description: 'Two progress steps, then a result' }, (_args, ctx) => {
    ctx.progress(1, 2)
    ctx.progress(2, 2)
    return 'stepped'
  })
  return { app, handler: createFetchHandler(app, { auth: bearerJsonAuth }) }
}

interface Send {
  session?: string
  who?: Who
  headers?: Record<string, string>
  signal?: AbortSignal
}

function headersOf(options: Send, base: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { ...base, ...(options.who ? bearer(options.who) : {}) }
  if (options.session !== undefined) headers['mcp-session-id'] = options.session
  return { ...headers, ...options.headers }
}

function post(handler: FetchHandler, message: Json, options: Send = {}): Promise<Response> {
  const base = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': '2025-11-25',
  }
  const body = JSON.stringify({ jsonrpc: '2.0', ...message })
  return handler(new Request(URL_, { method: 'POST', headers: headersOf(options, base), body }))
}

function get(handler: FetchHandler, options: Send = {}): Promise<Response> {
  const headers = headersOf(options, { accept: 'text/event-stream' })
  return handler(new Request(URL_, { method: 'GET', headers, signal: options.signal }))
}

function del(handler: FetchHandler, options: Send = {}): Promise<Response> {
  return handler(new Request(URL_, { method: 'DELETE', headers: headersOf(options, {}) }))
}

const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }

async function initialize(handler: FetchHandler, who?: Who): Promise<string> {
  const response = await post(handler, { id: 0, method: 'initialize', params: INIT }, { who, headers: {} })
  const session = response.headers.get('mcp-session-id')
  if (response.status !== 200 || session === null) throw new Error(`initialize failed: ${response.status}`)
  await response.text()
  return session
}

const idOf = (block: string | undefined) => /^id: (.+)$/m.exec(block ?? '')?.[1]

describe('initialize and the session id', () => {
  it('namesTheSessionItOpenedInMcpSessionIdAndServesItsRequests', async () => {
    const { handler } = serve()
    const response = await post(handler, { id: 1, method: 'initialize', params: INIT })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    const session = response.headers.get('mcp-session-id')!
    expect(session).toMatch(/^[\x21-\x7E]{32,}$/)
    expect(await response.json()).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } })
    const list = await readReply(await post(handler, { id: 2, method: 'tools/list' }, { session }))
    expect(list.status).toBe(200)
    const result = resultOf(list)
    expect(result.tools).toHaveLength(2)
    expect(result).not.toHaveProperty('resultType')
  })

  it('answers503WithoutASessionIdWhenTheStoreIsFull', async () => {
    const { handler } = serve({ maxSessions: 1 })
    await initialize(handler)
    const response = await post(handler, { id: 'second', method: 'initialize', params: INIT })
    expect(response.status).toBe(503)
    expect(response.headers.get('mcp-session-id')).toBeNull()
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 'second',
      error: { code: -32603, message: 'Too many sessions; try again later.' },
    })
  })
})

describe('a session belongs to its principal', () => {
  it('answersAnotherPrincipalExactlyLikeAnUnknownSessionId', async () => {
    const { handler } = serve()
    const session = await initialize(handler, ALICE)
    const stolen = await readReply(
      await post(handler, { id: 3, method: 'tools/list' }, { session, who: MALLORY }),
    )
    const unknown = await readReply(await post(handler, { id: 3, method: 'tools/list' }, { session: 'nope' }))
    expect(stolen.status).toBe(404)
    expect(stolen.raw).toBe(unknown.raw)
    expect(stolen.body).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32600, message: 'Session not found.' },
    })
    expect((await get(handler, { session, who: MALLORY })).status).toBe(404)
    expect((await get(handler, { session })).status).toBe(404)
    expect((await del(handler, { session, who: MALLORY })).status).toBe(404)
    // None of it touched the owner's session.
    const owner = await readReply(
      await post(handler, { id: 4, method: 'tools/list' }, { session, who: ALICE }),
    )
    expect(owner.status).toBe(200)
  })
})

describe('DELETE', () => {
  it('endsTheSessionAndItsGetStream', async () => {
    const { handler } = serve()
    const session = await initialize(handler)
    const stream = sseBlocks(await get(handler, { session }))
    expect(idOf(await stream.next())).toBeDefined()
    const ended = await del(handler, { session })
    expect(ended.status).toBe(200)
    expect(await ended.text()).toBe('')
    expect(await stream.next()).toBeUndefined()
    const after = await readReply(await post(handler, { id: 5, method: 'tools/list' }, { session }))
    expect(after.status).toBe(404)
  })
})

describe('GET', () => {
  it('primesTheStandaloneStreamWithAnIdAndRetryThenDeliversListChanges', async () => {
    const { app, handler } = serve()
    const session = await initialize(handler)
    const response = await get(handler, { session })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const stream = sseBlocks(response)
    const priming = await stream.next()
    const match = /^id: (([^/\n]+)\/1)\nretry: 500\ndata: $/.exec(priming ?? '')
    expect(match, priming).not.toBeNull()
    const streamId = match![2]!
    expect(streamId.startsWith(`${session}.get-`)).toBe(true)
    app.tool('late', { description: 'Registered while serving' }, () => 'late')
    expect(await stream.next()).toBe(
      `id: ${streamId}/2\nevent: message\ndata: ${JSON.stringify({
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: {},
      })}`,
    )
    await stream.cancel()
  })

  it('refusesAGetThatDoesNotAcceptAnEventStreamWith406', async () => {
    const { handler } = serve()
    const session = await initialize(handler)
    const reply = await readReply(await get(handler, { session, headers: { accept: 'application/json' } }))
    expect(reply.status).toBe(406)
    expect(reply.body).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Not acceptable: GET needs Accept: text/event-stream.' },
    })
  })
})

describe('a GET stream whose client is gone', () => {
  /** An event store that records finished streams and can hold the priming event of a GET stream. */
  function watchedEvents() {
    const store = memoryEventStore()
    const state = { finished: [] as string[], hold: undefined as Promise<void> | undefined, held: () => {} }
    const events: EventStore = {
      ...store,
      async append(streamId, message) {
        if (state.hold && streamId.includes('.get-') && message === undefined) {
          state.held()
          await state.hold
        }
        return store.append(streamId, message)
      },
      finish(streamId) {
        state.finished.push(streamId)
        return store.finish(streamId)
      },
    }
    return { events, state }
  }

  async function until(check: () => boolean, what: string, ms = 2_000): Promise<void> {
    const deadline = Date.now() + ms
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`)
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  }

  it('stopsFollowingTheSessionWhenTheClientCancelsTheStream', async () => {
    const { events, state } = watchedEvents()
    const { handler } = serve({ events })
    const session = await initialize(handler)
    const stream = sseBlocks(await get(handler, { session }))
    await stream.next()
    await stream.cancel()
    await until(() => state.finished.some((id) => id.startsWith(`${session}.get-`)), 'the stream finishing')
  })

  // The client leaves while the priming event is being stored, before anything was written to it.
  it('stopsFollowingTheSessionWhenTheClientLeftWhileThePrimingEventWasStored', async () => {
    const { events, state } = watchedEvents()
    const { handler } = serve({ events })
    const session = await initialize(handler)
    let release!: () => void
    state.hold = new Promise<void>((resolve) => {
      release = resolve
    })
    const held = new Promise<void>((resolve) => {
      state.held = resolve
    })
    const controller = new AbortController()
    const replied = get(handler, { session, signal: controller.signal })
    await held
    controller.abort()
    release()
    await replied
    await until(
      () => state.finished.some((id) => id.startsWith(`${session}.get-`)),
      'the stream finishing',
      500,
    )
  })
})

describe('resuming a POST stream', () => {
  async function streamedCall(handler: FetchHandler, session: string) {
    const params = { name: 'steps', arguments: {}, _meta: { progressToken: 'p' } }
    const response = await post(handler, { id: 9, method: 'tools/call', params }, { session })
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const stream = sseBlocks(response)
    const events: string[] = []
    for (let block = await stream.next(); block !== undefined; block = await stream.next()) events.push(block)
    return events
  }

  it('primesThePostStreamAndGivesEveryEventAnIdOfThatStream', async () => {
    const { handler } = serve()
    const session = await initialize(handler)
    const events = await streamedCall(handler, session)
    expect(events).toHaveLength(4)
    expect(events[0]!.startsWith(`id: ${session}.post-`)).toBe(true)
    expect(events[0]!.endsWith('/1\nretry: 500\ndata: ')).toBe(true)
    const stream = idOf(events[0])!.split('/')[0]
    expect(events.map(idOf)).toEqual([1, 2, 3, 4].map((n) => `${stream}/${n}`))
    expect(events[3]).toContain('"id":9')
  })

  it('replaysWhatCameAfterLastEventIdForTheSessionThatOwnsTheStream', async () => {
    const { handler } = serve()
    const session = await initialize(handler)
    const events = await streamedCall(handler, session)
    const resumed = sseBlocks(await get(handler, { session, headers: { 'last-event-id': idOf(events[1])! } }))
    expect(await resumed.next()).toBe(events[2])
    expect(await resumed.next()).toBe(events[3])
    expect(await resumed.next()).toBeUndefined()
  })

  it('opensAFreshStandaloneStreamInsteadForAnotherSession', async () => {
    const { handler } = serve()
    const owner = await initialize(handler)
    const other = await initialize(handler)
    const events = await streamedCall(handler, owner)
    const response = await get(handler, { session: other, headers: { 'last-event-id': idOf(events[1])! } })
    const stream = sseBlocks(response)
    const first = await stream.next()
    expect(idOf(first)?.startsWith(`${other}.get-`)).toBe(true)
    expect(first).not.toContain('progress')
    await stream.cancel()
  })
})

describe('inside a session', () => {
  it('refusesAnUnsupportedMcpProtocolVersionWith400', async () => {
    const { handler } = serve()
    const session = await initialize(handler)
    for (const version of ['2099-01-01', 'latest']) {
      const headers = { 'mcp-protocol-version': version }
      const reply = await readReply(
        await post(handler, { id: 6, method: 'tools/list' }, { session, headers }),
      )
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual({
        jsonrpc: '2.0',
        id: 6,
        error: { code: -32600, message: 'Bad request: unsupported MCP-Protocol-Version.' },
      })
      expect((await get(handler, { session, headers })).status).toBe(400)
    }
    const older = await post(
      handler,
      { id: 7, method: 'tools/list' },
      {
        session,
        headers: { 'mcp-protocol-version': '2025-06-18' },
      },
    )
    expect(older.status).toBe(200)
  })

  it('acceptsTheClientsNotificationsAndResponsesWith202', async () => {
    const { handler } = serve()
    const session = await initialize(handler)
    const initialized = await post(handler, { method: 'notifications/initialized' }, { session })
    expect(initialized.status).toBe(202)
    expect(await initialized.text()).toBe('')
    const answer = await post(handler, { id: 's-nobody-asked', result: {} }, { session })
    expect(answer.status).toBe(202)
  })

  it('answersJsonRpcErrorsInsideTheSessionOn200', async () => {
    const { handler } = serve()
    const session = await initialize(handler)
    const reply = await readReply(await post(handler, { id: 8, method: 'prompts/list' }, { session }))
    expect(reply.status).toBe(200)
    expect(reply.body?.error).toMatchObject({ code: -32601 })
  })
})

describe('a session store that fails', () => {
  /** A store whose reads and writes throw, as one whose connection dropped does; and what was logged. */
  function failing() {
    const logged: Array<{ event?: unknown; err?: unknown }> = []
    const logger = { ...silentLogger, error: (obj: object) => logged.push(obj) }
    const broken = new Error('connection refused')
    const sessions = {
      ...memorySessionStore(),
      create: () => Promise.reject(broken),
      get: () => Promise.reject(broken),
    }
    const app = createServer({ name: 'broken-store', version: '1.0.0', logger, stores: { sessions } })
    app.tool('echo', { description: 'Echo' }, () => 'echo')
    return { handler: createFetchHandler(app), logged, broken }
  }

  it('logsAStoreThatThrowsOnInitializeAndAnswersInternalError', async () => {
    const { handler, logged, broken } = failing()
    const response = await post(handler, { id: 0, method: 'initialize', params: INIT })
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32603)
    expect(logged).toEqual([{ event: 'session_open_failed', err: broken }])
  })

  it('logsAStoreThatThrowsOnLookupAndAnswersInternalError', async () => {
    const { handler, logged, broken } = failing()
    const response = await post(handler, { id: 1, method: 'ping' }, { session: 'some-session' })
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32603)
    expect(logged).toEqual([{ event: 'session_lookup_failed', err: broken }])
  })
})
