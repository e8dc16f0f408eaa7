/**
 * @module handshake-lifecycle.test
 * The 2025-11-25 handshake era over a real node:http server (port 0) on the same endpoint as
 * 2026-07-28: version negotiation at initialize, the session id (shape, 400 without, 404 unknown,
 * ended by DELETE, bound to its principal), ping, logging/setLevel, resources/subscribe and list
 * changes on the GET stream, 2025-11-25 result shapes and error codes, and modern requests that
 * carry a stale session id but are still served statelessly.
 */
import { createServer, type McpServer } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { memorySessionStore, type SessionStore } from '@tessera/core/ports'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  EventReader,
  errorOf,
  HANDSHAKE_VERSION,
  HandshakeClient,
  type Json,
  resultOf,
  sleep,
  textOf,
} from '../helpers/handshake-client.ts'
import { bearer, bearerJsonAuth, capturingLogger, McpHttpClient, VERSION } from '../helpers/mcp-http.ts'

const ALICE = { issuer: 'https://idp.example', subject: 'alice', clientId: 'app' }
const MALLORY = { issuer: 'https://idp.example', subject: 'mallory', clientId: 'app' }

function build(): McpServer {
  const app = createServer({
    name: 'it-handshake',
    version: '2.0.0',
    logging: true,
    logger: capturingLogger(),
  })
  app.tool(
    'echo',
    { description: 'Echo text', input: z.object({ text: z.string() }) },
    ({ text }) => `echo: ${text}`,
  )
  app.tool('chatty', { description: 'Logs at four levels' }, async (_args, ctx) => {
    for (const level of ['debug', 'info', 'warning', 'error'] as const) {
      ctx.log(level, `${level} line`, 'chatty')
      await sleep(2)
    }
    return 'logged'
  })
  app.tool('structured', { description: 'Structured output', output: z.object({ n: z.number() }) }, () => ({
    content: [{ type: 'text', text: '7' }],
    structuredContent: { n: 7 },
  }))
  app.resource('config://server', { name: 'server-config' }, (uri) => ({ contents: [{ uri, text: 'cfg' }] }))
  app.resource('config://other', { name: 'other-config' }, (uri) => ({ contents: [{ uri, text: 'other' }] }))
  app.resourceTemplate('notes://{id}', { name: 'note' }, (uri, { id }) =>
    id === 'known' ? { contents: [{ uri, text: 'a note' }] } : undefined,
  )
  app.prompt('greet', { description: 'Greets', args: [{ name: 'who', required: true }] }, ({ who }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `hello ${who}` } }],
  }))
  return app
}

let app: McpServer
let running: RunningServer
let url: string

beforeAll(async () => {
  app = build()
  running = await listen(app, { port: 0, authenticate: bearerJsonAuth })
  url = running.url
})

afterAll(async () => {
  await running?.close()
})

const connect = (headers?: Record<string, string>) => HandshakeClient.connect(url, { headers })

describe('initialize', () => {
  it('echoes 2025-11-25 and opens a session', async () => {
    const client = new HandshakeClient(url)
    const reply = await client.initialize()
    expect(reply.status).toBe(200)
    expect(reply.contentType).toMatch(/^application\/json/)
    const result = resultOf(reply)
    expect(result.protocolVersion).toBe(HANDSHAKE_VERSION)
    expect(result.serverInfo).toMatchObject({ name: 'it-handshake', version: '2.0.0' })
    expect(result.capabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
    })
    expect(result).not.toHaveProperty('resultType')
    expect(client.sessionId).toBeDefined()
    expect((await client.notify('notifications/initialized')).status).toBe(202)
    expect(resultOf(await client.request('tools/list')).tools).toBeInstanceOf(Array)
  })

  it.each(['2025-06-18', '2025-03-26'])(
    'echoes the older 2025-era version %s it supports',
    async (version) => {
      const client = new HandshakeClient(url)
      expect(resultOf(await client.initialize({ protocolVersion: version })).protocolVersion).toBe(version)
    },
  )

  it.each(['1999-01-01', 'not-a-version', '2026-07-28'])(
    'answers %s with 2025-11-25, never 2026-07-28',
    async (version) => {
      const client = new HandshakeClient(url)
      const reply = await client.initialize({ protocolVersion: version })
      expect(reply.status).toBe(200)
      expect(resultOf(reply).protocolVersion).toBe(HANDSHAKE_VERSION)
      expect(client.sessionId).toBeDefined()
    },
  )

  it('never offers 2026-07-28, even when the header asks for it', async () => {
    const client = new HandshakeClient(url)
    const reply = await client.initialize(
      { protocolVersion: '2026-07-28' },
      { 'mcp-protocol-version': '2026-07-28' },
    )
    expect(resultOf(reply).protocolVersion).toBe(HANDSHAKE_VERSION)
  })

  it('refuses an initialize without protocolVersion or capabilities with -32602 and no session', async () => {
    const client = new HandshakeClient(url)
    const reply = await client.initialize({ protocolVersion: undefined, capabilities: undefined })
    expect(errorOf(reply).code).toBe(-32602)
    expect(reply.headers.get('mcp-session-id')).toBeNull()
  })

  it('mints visible-ASCII session ids of at least 128 bits, never twice', async () => {
    const ids = new Set<string>()
    for (let i = 0; i < 20; i++) {
      const client = new HandshakeClient(url)
      await client.initialize()
      const id = client.sessionId!
      expect(id).toMatch(/^[\x21-\x7E]+$/)
      // Bits carried by the id, from the alphabet it is drawn from.
      const bitsPerChar = /^[0-9a-f]+$/i.test(id) ? 4 : /^[A-Za-z0-9_-]+$/.test(id) ? 6 : 0
      expect(id.length * bitsPerChar).toBeGreaterThanOrEqual(128)
      ids.add(id)
    }
    expect(ids.size).toBe(20)
  })

  it('opens a new session for an initialize that carries a session id, and keeps the old one', async () => {
    const client = await connect()
    const old = client.sessionId!
    const reply = await client.initialize()
    expect(resultOf(reply).protocolVersion).toBe(HANDSHAKE_VERSION)
    expect(client.sessionId).not.toBe(old)
    expect(resultOf(await client.at(url).request('ping'))).toStrictEqual({})
    const back = client.at(url)
    back.sessionId = old
    expect(resultOf(await back.request('ping'))).toStrictEqual({})
  })
})

describe('sessions', () => {
  it('answers an unknown session id with 404 on POST, GET and DELETE', async () => {
    const client = new HandshakeClient(url)
    client.sessionId = 'no-such-session-aaaaaaaaaaaaaaaaaaaaaaaaaaaa'
    client.protocolVersion = HANDSHAKE_VERSION
    const reply = await client.request('tools/list')
    expect(reply.status).toBe(404)
    expect(errorOf(reply).code).toBe(-32600)
    expect((await client.get()).status).toBe(404)
    expect((await client.delete()).status).toBe(404)
    // A notification or a response with an unknown session is not accepted either.
    expect((await client.notify('notifications/initialized')).status).toBe(404)
  })

  it('answers a non-initialize request without a session id with 400', async () => {
    const client = await connect()
    const reply = await client.request('tools/list', undefined, { headers: { 'mcp-session-id': null } })
    expect(reply.status).toBe(400)
    expect(reply.body?.id).toBeDefined()
    const get = await client.get(undefined, { 'mcp-session-id': null })
    expect(get.status).toBe(400)
  })

  it('answers an unsupported MCP-Protocol-Version in a session with 400', async () => {
    const client = await connect()
    const reply = await client.request('tools/list', undefined, {
      headers: { 'mcp-protocol-version': '1999-01-01' },
    })
    expect(reply.status).toBe(400)
  })

  it('ends a session on DELETE: 200, then 404 for the id', async () => {
    const client = await connect()
    expect(resultOf(await client.request('ping')).constructor).toBe(Object)
    const gone = await client.delete()
    expect(gone.status).toBe(200)
    expect((await client.request('tools/list')).status).toBe(404)
    expect((await client.get()).status).toBe(404)
    expect((await client.delete()).status).toBe(404)
  })

  it('ends the open GET stream of a session on DELETE', async () => {
    const client = await connect()
    const reader = new EventReader(await client.get())
    expect((await reader.next())?.id).toBeDefined()
    expect((await client.delete()).status).toBe(200)
    expect(await reader.next(2_000)).toBeUndefined()
  })

  it('treats a session used by another principal as unknown (404), and keeps it for its owner', async () => {
    const alice = await connect(bearer(ALICE))
    expect(resultOf(await alice.request('ping'))).toEqual({})
    const stolen = alice.at(url)
    const asMallory = { ...bearer(MALLORY) }
    const reply = await stolen.request(
      'tools/call',
      { name: 'echo', arguments: { text: 'x' } },
      { headers: asMallory },
    )
    expect(reply.status).toBe(404)
    expect((await stolen.request('ping', undefined, { headers: { authorization: null } })).status).toBe(404)
    expect((await stolen.get(undefined, asMallory)).status).toBe(404)
    expect((await stolen.delete(asMallory)).status).toBe(404)
    expect((await stolen.notify('notifications/initialized', undefined, asMallory)).status).toBe(404)
    // Alice still has her session.
    expect(resultOf(await alice.request('ping'))).toEqual({})
  })

  it('keeps an anonymous session away from an authenticated caller', async () => {
    const anonymous = await connect()
    const reply = await anonymous.request('ping', undefined, { headers: bearer(ALICE) })
    expect(reply.status).toBe(404)
  })
})

describe('methods of the session', () => {
  it('answers ping with exactly {}', async () => {
    const client = await connect()
    const reply = await client.request('ping', undefined, { id: 'p-1' })
    expect(reply.status).toBe(200)
    expect(reply.body).toStrictEqual({ jsonrpc: '2.0', id: 'p-1', result: {} })
  })

  it('answers ping even before notifications/initialized', async () => {
    const client = new HandshakeClient(url)
    await client.initialize()
    expect(resultOf(await client.request('ping'))).toStrictEqual({})
  })

  it('sends notifications/message at or above the level set by logging/setLevel', async () => {
    const client = await connect()
    const quiet = await client.callTool('chatty')
    expect(quiet.notifications).toEqual([])
    expect(resultOf(await client.request('logging/setLevel', { level: 'warning' }))).toStrictEqual({})
    const reply = await client.callTool('chatty')
    expect(textOf(resultOf(reply))).toBe('logged')
    expect(reply.contentType).toMatch(/^text\/event-stream/)
    expect(reply.notifications).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'warning', data: 'warning line', logger: 'chatty' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'error', data: 'error line', logger: 'chatty' },
      },
    ])
    await client.request('logging/setLevel', { level: 'debug' })
    expect((await client.callTool('chatty')).notifications.map((n) => (n.params as Json).level)).toEqual([
      'debug',
      'info',
      'warning',
      'error',
    ])
  })

  it('refuses an unknown logging level with -32602', async () => {
    const client = await connect()
    expect(errorOf(await client.request('logging/setLevel', { level: 'loud' })).code).toBe(-32602)
  })

  it('delivers notifications/resources/updated for subscribed URIs on the GET stream', async () => {
    const client = await connect()
    const reader = new EventReader(await client.get())
    const priming = await reader.next()
    expect(priming?.id).toBeDefined()
    expect(priming?.message).toBeUndefined()
    expect(resultOf(await client.request('resources/subscribe', { uri: 'config://server' }))).toStrictEqual(
      {},
    )
    app.notifyResourceUpdated('config://other')
    app.notifyResourceUpdated('config://server')
    const event = await reader.next()
    expect(event?.id).toBeDefined()
    expect(event?.message).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'config://server' },
    })
    expect(await reader.quietFor(150)).toBe(true)
    expect(resultOf(await client.request('resources/unsubscribe', { uri: 'config://server' }))).toStrictEqual(
      {},
    )
    app.notifyResourceUpdated('config://server')
    expect(await reader.quietFor(200)).toBe(true)
    await reader.cancel()
  })

  it('delivers a tool list change on the GET stream of every open session', async () => {
    const one = await connect()
    const two = await connect()
    const readers = [new EventReader(await one.get()), new EventReader(await two.get())]
    for (const reader of readers) await reader.next()
    app.tool('late', { description: 'Registered while serving' }, () => 'late')
    for (const reader of readers) {
      expect(await reader.nextMessage()).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: {},
      })
    }
    app.removeTool('late')
    for (const reader of readers) {
      expect((await reader.nextMessage())?.method).toBe('notifications/tools/list_changed')
      await reader.cancel()
    }
  })

  it('gives event ids on the GET stream that name this session', async () => {
    const client = await connect()
    const reader = new EventReader(await client.get())
    const priming = await reader.next()
    expect(priming?.id?.startsWith(`${client.sessionId}.`)).toBe(true)
    expect(priming?.retry).toBeGreaterThan(0)
    await reader.cancel()
  })

  it('returns results without resultType, ttlMs or cacheScope', async () => {
    const client = await connect()
    const calls: Array<[string, Json | undefined]> = [
      ['tools/list', undefined],
      ['tools/call', { name: 'echo', arguments: { text: 'hi' } }],
      ['tools/call', { name: 'structured', arguments: {} }],
      ['resources/list', undefined],
      ['resources/templates/list', undefined],
      ['resources/read', { uri: 'config://server' }],
      ['resources/read', { uri: 'notes://known' }],
      ['prompts/list', undefined],
      ['prompts/get', { name: 'greet', arguments: { who: 'bob' } }],
      ['ping', undefined],
      ['logging/setLevel', { level: 'info' }],
    ]
    for (const [method, params] of calls) {
      const result = resultOf(await client.request(method, params))
      for (const key of ['resultType', 'ttlMs', 'cacheScope']) {
        expect(result, `${method} has ${key}`).not.toHaveProperty(key)
      }
    }
    const call = resultOf(await client.callTool('structured'))
    expect(call.structuredContent).toEqual({ n: 7 })
    expect(textOf(resultOf(await client.callTool('echo', { text: 'hi' })))).toBe('echo: hi')
  })

  it('answers a missing resource with -32002', async () => {
    const client = await connect()
    for (const uri of ['notes://missing', 'config://nope']) {
      const reply = await client.request('resources/read', { uri })
      expect(reply.status).toBe(200)
      expect(errorOf(reply).code).toBe(-32002)
    }
  })

  it('refuses the modern-only methods in a session', async () => {
    const client = await connect()
    expect(errorOf(await client.request('server/discover')).code).toBe(-32601)
    expect(errorOf(await client.request('subscriptions/listen', { notifications: {} })).code).toBe(-32601)
  })

  it('answers bad tool arguments with -32602, like the modern era', async () => {
    const client = await connect()
    expect(errorOf(await client.callTool('echo', { text: 3 })).code).toBe(-32602)
    expect(errorOf(await client.callTool('no-such-tool')).code).toBe(-32602)
  })
})

describe('modern requests on the same endpoint', () => {
  it('serves a modern request carrying a stale Mcp-Session-Id statelessly, with no session header', async () => {
    const handshake = await connect()
    const stale = handshake.sessionId!
    expect((await handshake.delete()).status).toBe(200)
    const modern = new McpHttpClient(url)
    for (const session of [stale, 'never-existed']) {
      const reply = await modern.callTool(
        'echo',
        { text: 'modern' },
        { headers: { 'mcp-session-id': session } },
      )
      expect(reply.status).toBe(200)
      expect(reply.headers.get('mcp-session-id')).toBeNull()
      const result = reply.body?.result as Json
      expect(result.resultType).toBe('complete')
      expect(textOf(result)).toBe('echo: modern')
    }
  })

  it('serves a modern request carrying a live session id statelessly too, and leaves the session alone', async () => {
    const handshake = await connect()
    const modern = new McpHttpClient(url)
    const reply = await modern.request(
      'tools/list',
      {},
      { headers: { 'mcp-session-id': handshake.sessionId! } },
    )
    expect(reply.status).toBe(200)
    expect(reply.headers.get('mcp-session-id')).toBeNull()
    expect((reply.body?.result as Json | undefined)?.resultType).toBe('complete')
    expect((reply.body?.result as Json | undefined)?.ttlMs).toBeTypeOf('number')
    const discover = await modern.request(
      'server/discover',
      {},
      { headers: { 'mcp-session-id': handshake.sessionId! } },
    )
    expect(discover.headers.get('mcp-session-id')).toBeNull()
    expect((discover.body?.result as Json | undefined)?.supportedVersions).toContain(VERSION)
    expect(resultOf(await handshake.request('ping'))).toStrictEqual({})
  })

  it('never mints a session for a modern request', async () => {
    const modern = new McpHttpClient(url)
    const reply = await modern.request('tools/list')
    expect(reply.headers.get('mcp-session-id')).toBeNull()
  })
})

describe('session state under concurrent requests', () => {
  /** A memory store whose reads take 20 ms, like a store across a network. */
  const slowStore = (inner: SessionStore): SessionStore => ({
    create: (session) => inner.create(session),
    get: async (id) => {
      const session = await inner.get(id)
      await sleep(20)
      return session
    },
    apply: async (id, change) => {
      await sleep(20)
      return inner.apply(id, change)
    },
    delete: (id) => inner.delete(id),
    close: () => inner.close(),
  })

  it('keeps every subscription made by concurrent requests', async () => {
    const inner = memorySessionStore()
    const slow = createServer({
      name: 'it-slow-store',
      version: '1.0.0',
      logging: true,
      logger: capturingLogger(),
      stores: { sessions: slowStore(inner) },
    })
    slow.resource('config://a', { name: 'a' }, (uri) => ({ contents: [{ uri, text: 'a' }] }))
    slow.resource('config://b', { name: 'b' }, (uri) => ({ contents: [{ uri, text: 'b' }] }))
    const server = await listen(slow, { port: 0 })
    try {
      const client = await HandshakeClient.connect(server.url)
      await Promise.all([
        client.request('resources/subscribe', { uri: 'config://a' }),
        client.request('resources/subscribe', { uri: 'config://b' }),
        client.request('logging/setLevel', { level: 'debug' }),
      ])
      const stored = await inner.get(client.sessionId!)
      expect({ subscriptions: stored?.subscriptions.slice().sort(), logLevel: stored?.logLevel }).toEqual({
        subscriptions: ['config://a', 'config://b'],
        logLevel: 'debug',
      })
      const reader = new EventReader(await client.get())
      await reader.next()
      slow.notifyResourceUpdated('config://a')
      slow.notifyResourceUpdated('config://b')
      const uris = [await reader.nextMessage(1_000), await reader.nextMessage(1_000)].map(
        (m) => (m?.params as Json | undefined)?.uri,
      )
      await reader.cancel()
      expect(uris.sort()).toEqual(['config://a', 'config://b'])
    } finally {
      await server.close()
    }
  })
})
