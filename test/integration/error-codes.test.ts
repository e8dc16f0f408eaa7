/**
 * @module error-codes.test
 * Every code of the error table, produced on the wire by a request that should get it, through
 * the fetch face: the JSON-RPC code and the HTTP status must be the table's (and, inside a
 * 2025-11-25 session, its code for that revision). A code without a scenario here fails the suite,
 * so the table cannot hold a code that nothing produces.
 */
import {
  createMessage,
  createServer,
  elicitForm,
  type McpServer,
  type ServerOptions,
  type TesseraErrorCode,
} from '@tessera/core'
import { createFetchHandler, type HttpOptions, listen } from '@tessera/core/http'
import { memoryReplayStore, memorySessionStore, type ReplayStore } from '@tessera/core/ports'
import { type WireMapping, wireMappings } from '@tessera/core/protocol'
import { generateStateKey } from '@tessera/core/request-state'
import { describe, expect, it } from 'vitest'
import { parseEvent } from '../helpers/handshake-client.ts'
import { ALL_CAPS, type Json, mcpHeaders, readReply, withMeta } from '../helpers/mcp-http.ts'
import { silentLogger } from '../helpers/silent-logger.ts'

const URL_ = 'http://127.0.0.1/mcp'

function server(options: Partial<ServerOptions> = {}): McpServer {
  const app = createServer({
    name: 'it-codes',
    version: '1.0.0',
    logger: silentLogger,
    requestState: { keys: [generateStateKey('k')] },
    ...options,
  })
  app.tool('plain', { description: 'Answers' }, () => 'ok')
  app.tool('guarded', { description: 'Needs a scope', scopes: ['ops:write'] }, () => 'ok')
  app.tool('asks', { description: 'Asks for a name' }, async (_a, ctx) => {
    const form = elicitForm({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } })
    await ctx.ask('name', form)
    return 'asked'
  })
  app.tool('slow-once', { description: 'Single-use, slow', singleUse: true }, async (_a, ctx) => {
    await ctx.ask('go', elicitForm({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } }))
    await new Promise((resolve) => setTimeout(resolve, 150))
    return 'done'
  })
  app.tool('hangs', { description: 'Never answers', limits: { timeoutMs: 30 } }, () => new Promise(() => {}))
  app.tool('samples', { description: 'Asks the client LLM' }, async (_a, ctx) => {
    await ctx.ask('llm', createMessage({ messages: [], maxTokens: 1 }))
    return 'sampled'
  })
  app.prompt('broken', { description: 'Throws' }, () => {
    throw new Error('prompt failed')
  })
  app.resource('config://a', { name: 'a' }, (uri) => ({ contents: [{ uri, text: 'a' }] }))
  return app
}

type Observed = { status: number; code: number | undefined }

async function send(
  fetch: (request: Request) => Promise<Response>,
  body: string | Json,
  headers: Record<string, string> = {},
  init: { method?: string; url?: string } = {},
): Promise<Observed> {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  const request = new Request(init.url ?? URL_, {
    method: init.method ?? 'POST',
    headers,
    body: (init.method ?? 'POST') === 'POST' ? text : undefined,
  })
  const reply = await readReply(await fetch(request))
  return { status: reply.status, code: (reply.body?.error as { code?: number } | undefined)?.code }
}

/** A 2026-07-28 request with its envelope and mirrored headers. */
function modern(method: string, params: Json = {}, caps: Json = ALL_CAPS, id = 1) {
  const full = withMeta(params, { caps })
  return { body: { jsonrpc: '2.0', id, method, params: full }, headers: mcpHeaders(method, full) }
}

async function call(
  handler: ReturnType<typeof createFetchHandler>,
  method: string,
  params: Json = {},
  caps?: Json,
) {
  const m = modern(method, params, caps)
  return send(handler, m.body, m.headers)
}

/** The requestState of the first round of `tool`. */
async function firstState(handler: ReturnType<typeof createFetchHandler>, tool: string): Promise<string> {
  const m = modern('tools/call', { name: tool, arguments: {} })
  const reply = await readReply(
    await handler(new Request(URL_, { method: 'POST', headers: m.headers, body: JSON.stringify(m.body) })),
  )
  return (reply.body!.result as { requestState: string }).requestState
}

const postHeaders = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' }
const http = (app: McpServer, options?: HttpOptions) => createFetchHandler(app, options)

/** 2025-11-25: initialize, then one request in the session; resolves with the session's answer. */
async function inSession(handler: ReturnType<typeof createFetchHandler>, method: string, params: Json) {
  const init = await handler(
    new Request(URL_, {
      method: 'POST',
      headers: postHeaders,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: { sampling: {} },
          clientInfo: { name: 'it', version: '1' },
        },
      }),
    }),
  )
  const session = init.headers.get('mcp-session-id')!
  const headers = { ...postHeaders, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }
  const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method, params })
  const response = await handler(new Request(URL_, { method: 'POST', headers, body }))
  // The answer comes last on the session's event stream, after the priming event and the question.
  const events = (await response.text()).split('\n\n').map((block) => parseEvent(block)?.message)
  const answer = events.filter((message) => message?.id === 2).at(-1)
  return { status: response.status, code: (answer?.error as { code?: number } | undefined)?.code }
}

const failingStore = (inner: ReplayStore, override: Partial<ReplayStore>): ReplayStore => ({
  claim: (...a) => inner.claim(...a),
  renew: (...a) => inner.renew(...a),
  complete: (...a) => inner.complete(...a),
  release: (...a) => inner.release(...a),
  inspect: (...a) => inner.inspect(...a),
  epoch: () => inner.epoch(),
  close: () => inner.close(),
  ...override,
})

const scenarios: Record<TesseraErrorCode, () => Promise<Observed>> = {
  TESSERA_PARSE_ERROR: () => send(http(server()), '{"jsonrpc":', postHeaders),
  TESSERA_INVALID_REQUEST: () => send(http(server()), '[]', postHeaders),
  TESSERA_METHOD_NOT_FOUND: () => call(http(server()), 'no/such'),
  TESSERA_INVALID_PARAMS: () => call(http(server()), 'tools/call', { name: 'nope', arguments: {} }),
  TESSERA_INVALID_ENVELOPE: () =>
    send(
      http(server()),
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { ...postHeaders, 'mcp-protocol-version': '2026-07-28' },
    ),
  TESSERA_INVALID_STATE: () =>
    call(http(server()), 'tools/call', { name: 'asks', arguments: {}, requestState: 'tss1.k.AAAA' }),
  TESSERA_RESOURCE_NOT_FOUND: () => call(http(server()), 'resources/read', { uri: 'config://none' }),
  TESSERA_INTERNAL: () => call(http(server()), 'prompts/get', { name: 'broken' }),
  TESSERA_HEADER_MISMATCH: () => {
    const m = modern('tools/list')
    return send(http(server()), m.body, { ...m.headers, 'mcp-method': 'tools/call' })
  },
  TESSERA_MISSING_CAPABILITY: () => call(http(server()), 'tools/call', { name: 'asks', arguments: {} }, {}),
  TESSERA_UNSUPPORTED_VERSION: () => {
    const m = modern('tools/list')
    const meta = (m.body.params as Json)._meta as Json
    meta['io.modelcontextprotocol/protocolVersion'] = '1999-01-01'
    return send(http(server()), m.body, { ...m.headers, 'mcp-protocol-version': '1999-01-01' })
  },
  TESSERA_LEASE_LOST: async () => {
    const store = failingStore(memoryReplayStore(), { renew: async () => false })
    const handler = http(server({ stores: { replay: store }, singleUse: { leaseMs: 90 } }))
    const requestState = await firstState(handler, 'slow-once')
    return call(handler, 'tools/call', {
      name: 'slow-once',
      arguments: {},
      requestState,
      inputResponses: { go: { action: 'accept', content: {} } },
    })
  },
  TESSERA_RATE_LIMITED: async () => {
    const handler = http(server({ rateLimits: { caller: { calls: 1, perMs: 60_000 } } }))
    await call(handler, 'tools/list')
    return call(handler, 'tools/list')
  },
  TESSERA_DEADLINE_EXCEEDED: () => call(http(server()), 'tools/call', { name: 'hangs', arguments: {} }),
  TESSERA_STORE_UNAVAILABLE: async () => {
    const store = failingStore(memoryReplayStore(), { claim: async () => Promise.reject(new Error('down')) })
    const handler = http(server({ stores: { replay: store } }))
    const requestState = await firstState(handler, 'slow-once')
    return call(handler, 'tools/call', {
      name: 'slow-once',
      arguments: {},
      requestState,
      inputResponses: { go: { action: 'accept', content: {} } },
    })
  },
  // The client never answers the sampling request the server sends it.
  TESSERA_CLIENT_REQUEST_FAILED: () =>
    inSession(http(server({ handshake: { requestTimeoutMs: 30 } })), 'tools/call', {
      name: 'samples',
      arguments: {},
    }),
  TESSERA_SESSION_REQUIRED: () =>
    send(
      http(server()),
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { ...postHeaders, 'mcp-protocol-version': '2025-11-25' },
    ),
  TESSERA_SESSION_NOT_FOUND: () =>
    send(
      http(server()),
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { ...postHeaders, 'mcp-session-id': 'nope' },
    ),
  // Over real HTTP (the cap is the node listener's): one slow call in flight, a second beyond the cap.
  TESSERA_UNAVAILABLE: async () => {
    const app = server()
    app.tool(
      'waits',
      { description: 'waits' },
      () => new Promise((resolve) => setTimeout(() => resolve('done'), 300)),
    )
    const running = await listen(app, { port: 0, maxConcurrentRequests: 1 })
    const socket = (request: Request) => fetch(new Request(request.url.replace(URL_, running.url), request))
    try {
      const first = call(socket, 'tools/call', { name: 'waits', arguments: {} })
      await new Promise((resolve) => setTimeout(resolve, 50))
      const refused = await call(socket, 'tools/call', { name: 'waits', arguments: {} })
      await first
      return refused
    } finally {
      await running.close()
    }
  },
  TESSERA_TOO_MANY_SESSIONS: () => {
    const handler = http(
      server({ stores: { sessions: { ...memorySessionStore(), create: async () => false } } }),
    )
    return send(
      handler,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {} },
      },
      postHeaders,
    )
  },
  TESSERA_TOO_MANY_TASKS: async () => {
    const app = server({ tasks: { maxPerPrincipal: 1 } })
    app.tool('as-task', { description: 'Runs as a task', task: 'required' }, () => 'ran')
    const handler = http(app)
    const caps = { ...ALL_CAPS, extensions: { 'io.modelcontextprotocol/tasks': {} } }
    await call(handler, 'tools/call', { name: 'as-task', arguments: {} }, caps)
    return call(handler, 'tools/call', { name: 'as-task', arguments: {} }, caps)
  },
  TESSERA_NOT_FOUND: () => send(http(server()), '{}', postHeaders, { url: 'http://127.0.0.1/other' }),
  TESSERA_UNAUTHORIZED: () =>
    call(
      http(server(), {
        auth: {
          authenticate: () => {
            throw new Error('no token')
          },
        },
      }),
      'tools/list',
    ),
  TESSERA_INSUFFICIENT_SCOPE: () => call(http(server()), 'tools/call', { name: 'guarded', arguments: {} }),
  TESSERA_FORBIDDEN: () => send(http(server()), '{}', { ...postHeaders, origin: 'https://evil.example' }),
  TESSERA_METHOD_NOT_ALLOWED: () => send(http(server()), '', {}, { method: 'PUT' }),
  TESSERA_NOT_ACCEPTABLE: () => send(http(server()), '{}', { ...postHeaders, accept: 'text/plain' }),
  TESSERA_PAYLOAD_TOO_LARGE: () =>
    send(http(server(), { maxBodyBytes: 8 }), '{"jsonrpc":"2.0"}', postHeaders),
  TESSERA_REQUEST_TIMEOUT: async () => {
    const stalled = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":'))
      },
    })
    const request = new Request(URL_, {
      method: 'POST',
      headers: postHeaders,
      body: stalled,
      duplex: 'half',
    } as RequestInit)
    const reply = await readReply(await http(server(), { bodyTimeoutMs: 50 })(request))
    return { status: reply.status, code: (reply.body?.error as { code?: number } | undefined)?.code }
  },
  TESSERA_UNSUPPORTED_MEDIA_TYPE: () =>
    send(http(server()), '{}', { ...postHeaders, 'content-type': 'text/plain' }),
  TESSERA_HEADERS_TOO_LARGE: () =>
    send(http(server(), { maxHeaderBytes: 64 }), '{}', { ...postHeaders, 'x-padding': 'x'.repeat(100) }),
  TESSERA_TRANSPORT_FAILED: async () => {
    const broken = new ReadableStream({
      pull(controller) {
        controller.error(new Error('the socket went away'))
      },
    })
    const request = new Request(URL_, {
      method: 'POST',
      headers: postHeaders,
      body: broken,
      duplex: 'half',
    } as RequestInit)
    const reply = await readReply(await http(server())(request))
    return { status: reply.status, code: (reply.body?.error as { code?: number } | undefined)?.code }
  },
}

/** Codes whose scenario runs inside a 2025-11-25 session, so the answer is 200 with that revision's code. */
const IN_SESSION: ReadonlySet<TesseraErrorCode> = new Set(['TESSERA_CLIENT_REQUEST_FAILED'])

describe('every code of the error table reaches the wire', () => {
  it('hasAScenarioForEveryCodeAndNoOther', () => {
    expect(Object.keys(scenarios).sort()).toEqual(Object.keys(wireMappings).sort())
  })

  it.each(Object.keys(wireMappings) as TesseraErrorCode[])('%s', async (code) => {
    const mapping: WireMapping = wireMappings[code]
    const observed = await scenarios[code]()
    const expected = IN_SESSION.has(code)
      ? { status: 200, code: mapping.handshake ?? mapping.jsonrpc }
      : { status: mapping.http, code: mapping.jsonrpc }
    expect(observed).toEqual(expected)
  })
})
