/**
 * @module handshake-client
 * A deliberately small 2025-11-25 (handshake era) client for integration tests: `initialize` and
 * `notifications/initialized`, requests carrying `Mcp-Session-Id` and `MCP-Protocol-Version`,
 * answers read as JSON or as SSE (with every event id kept), server-to-client requests answered
 * by POSTing a JSON-RPC response, the GET stream with or without `Last-Event-ID`, and DELETE.
 * Everything is exposed raw enough for tests to check statuses, headers and event ids. The reply
 * reader, the SSE reader and the timing helpers live in their own modules and are re-exported here,
 * so a test imports every handshake helper from this one path.
 */

import {
  type ClientAnswer,
  type HandshakeReply,
  type RequestHandler,
  readAnswer,
} from './handshake-replies.ts'
import { freshId, type Json, type RpcId } from './json-rpc.ts'

export {
  acceptWith,
  type ClientAnswer,
  errorOf,
  type HandshakeReply,
  type RequestHandler,
  readAnswer,
  resultOf,
  textOf,
} from './handshake-replies.ts'
export { freshId, type Json, type RpcId } from './json-rpc.ts'
export { EventReader, parseEvent, type SseEvent } from './sse-events.ts'
export { gate, sleep } from './timing.ts'

export const HANDSHAKE_VERSION = '2025-11-25'

/** Client capabilities that let the server ask for anything. */
export const HANDSHAKE_CAPS: Json = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} }

export interface HandshakeClientOptions {
  /** Extra headers on every request (e.g. `authorization`). */
  headers?: Record<string, string>
  /** Declared at initialize (default `HANDSHAKE_CAPS`). */
  capabilities?: Json
  /** Answers server-to-client requests unless a call passes its own handler (default: no answer). */
  onRequest?: RequestHandler
}

export interface RequestOptions {
  id?: RpcId
  onRequest?: RequestHandler
  /** Header overrides; `null` removes a header the client would send. */
  headers?: Record<string, string | null>
  /** Longest silence while reading an SSE answer (default 5 s). */
  timeoutMs?: number
}

/** A handshake-era client of one endpoint; `at(url)` gives the same session on another instance. */
export class HandshakeClient {
  sessionId: string | undefined
  /** The version negotiated at initialize (sent as MCP-Protocol-Version afterwards). */
  protocolVersion: string | undefined
  initializeResult: Json | undefined

  constructor(
    readonly url: string,
    readonly options: HandshakeClientOptions = {},
  ) {}

  /** initialize + notifications/initialized. */
  static async connect(url: string, options: HandshakeClientOptions = {}): Promise<HandshakeClient> {
    const client = new HandshakeClient(url, options)
    const reply = await client.initialize()
    if (reply.status !== 200 || client.sessionId === undefined) {
      throw new Error(`initialize failed: ${reply.status} ${JSON.stringify(reply.body)}`)
    }
    const ack = await client.notify('notifications/initialized')
    if (ack.status !== 202) throw new Error(`notifications/initialized got ${ack.status}`)
    return client
  }

  /** The same session, talking to another URL (another instance behind the same stores). */
  at(url: string): HandshakeClient {
    const other = new HandshakeClient(url, this.options)
    other.sessionId = this.sessionId
    other.protocolVersion = this.protocolVersion
    other.initializeResult = this.initializeResult
    return other
  }

  async initialize(params: Json = {}, headers: Record<string, string | null> = {}): Promise<HandshakeReply> {
    const full = {
      protocolVersion: HANDSHAKE_VERSION,
      capabilities: this.options.capabilities ?? HANDSHAKE_CAPS,
      clientInfo: { name: 'tessera-handshake-it', version: '0.0.1' },
      ...params,
    }
    const response = await this.post(
      { jsonrpc: '2.0', id: freshId(), method: 'initialize', params: full },
      headers,
    )
    const reply = await readAnswer(response, { client: this })
    const result = reply.body?.result as Json | undefined
    const session = response.headers.get('mcp-session-id')
    if (result !== undefined && session !== null) {
      this.sessionId = session
      this.protocolVersion = result.protocolVersion as string
      this.initializeResult = result
    }
    return reply
  }

  /** The headers of a request in this session. */
  headers(overrides: Record<string, string | null> = {}): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...this.options.headers,
    }
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion
    for (const [name, value] of Object.entries(overrides)) {
      if (value === null) delete headers[name.toLowerCase()]
      else headers[name.toLowerCase()] = value
    }
    return headers
  }

  /** POSTs any body (a string verbatim) with this session's headers. */
  post(body: unknown, headers: Record<string, string | null> = {}, signal?: AbortSignal): Promise<Response> {
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    return fetch(this.url, { method: 'POST', headers: this.headers(headers), body: text, signal })
  }

  /** Sends a request and reads the whole answer, answering server requests on the way. */
  async request(method: string, params?: Json, options: RequestOptions = {}): Promise<HandshakeReply> {
    const id = options.id ?? freshId()
    const response = await this.open(method, params, { ...options, id })
    return readAnswer(response, {
      client: this,
      expectId: id,
      onRequest: options.onRequest ?? this.options.onRequest,
      timeoutMs: options.timeoutMs,
    })
  }

  /** Sends a request and returns the live response (the test reads it, e.g. with `EventReader`). */
  open(
    method: string,
    params: Json | undefined,
    options: RequestOptions & { signal?: AbortSignal } = {},
  ): Promise<Response> {
    const message: Json = { jsonrpc: '2.0', id: options.id ?? freshId(), method }
    if (params !== undefined) message.params = params
    return this.post(message, options.headers, options.signal)
  }

  callTool(
    name: string,
    args: Json = {},
    options: RequestOptions & { meta?: Json } = {},
  ): Promise<HandshakeReply> {
    const params: Json = { name, arguments: args }
    if (options.meta !== undefined) params._meta = options.meta
    return this.request('tools/call', params, options)
  }

  notify(method: string, params?: Json, headers: Record<string, string | null> = {}): Promise<Response> {
    const message: Json = { jsonrpc: '2.0', method }
    if (params !== undefined) message.params = params
    return this.post(message, headers)
  }

  /** POSTs the answer to a server-to-client request (the server acknowledges with 202). */
  answer(id: RpcId, answer: Exclude<ClientAnswer, 'ignore'>): Promise<Response> {
    return this.post({ jsonrpc: '2.0', id, ...answer })
  }

  /** Opens the GET stream (standalone, or a resumption when `lastEventId` is given). */
  get(
    lastEventId?: string,
    headers: Record<string, string | null> = {},
    signal?: AbortSignal,
  ): Promise<Response> {
    const all = this.headers({ accept: 'text/event-stream', 'content-type': null, ...headers })
    if (lastEventId !== undefined) all['last-event-id'] = lastEventId
    return fetch(this.url, { method: 'GET', headers: all, signal })
  }

  /** Resumes a broken stream with GET + Last-Event-ID and reads it to the end. */
  async resume(
    lastEventId: string,
    options: { expectId?: RpcId; onRequest?: RequestHandler; timeoutMs?: number } = {},
  ): Promise<HandshakeReply> {
    const response = await this.get(lastEventId)
    return readAnswer(response, {
      client: this,
      ...options,
      onRequest: options.onRequest ?? this.options.onRequest,
    })
  }

  delete(headers: Record<string, string | null> = {}): Promise<Response> {
    return fetch(this.url, { method: 'DELETE', headers: this.headers({ 'content-type': null, ...headers }) })
  }
}
