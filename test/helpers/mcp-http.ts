/**
 * @module mcp-http
 * A deliberately small 2026-07-28 client for integration tests: it builds the `_meta` envelope and
 * the mirrored headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` with the Base64 sentinel
 * when needed), posts through any fetch-shaped function (global fetch or a fetch handler), and
 * reads replies whether they come as JSON or as an SSE stream. Also a raw node:http sender for
 * what fetch cannot express (a repeated header, a foreign `Host`), a bearer-JSON authenticator
 * and a capturing logger.
 */
import { request as httpRequest } from 'node:http'
import type { AuthInfo, Logger } from '@tessera/core'
import type { HttpAuthenticator } from '@tessera/core/http'
import { freshId, type Json, type RpcId } from './json-rpc.ts'
import { EventReader } from './sse-events.ts'

export { freshId, type Json, type RpcId, textOf } from './json-rpc.ts'
export { sleep } from './timing.ts'

export const VERSION = '2026-07-28'
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const

export type Send = (url: string, init: RequestInit) => Promise<Response>

/** Client capabilities that let the server ask for anything. */
export const ALL_CAPS: Json = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} }

export interface CallOptions {
  id?: RpcId
  /** Client capabilities for this request (default `ALL_CAPS`). */
  caps?: Json
  /** Extra `_meta` keys (progressToken, logLevel, clientInfo, …), merged over the envelope. */
  meta?: Json
  /** Header overrides; a value of `null` removes the header the helper would send. */
  headers?: Record<string, string | null>
  signal?: AbortSignal
}

/** A decoded reply: the final JSON-RPC message and, for SSE replies, every message before it. */
export interface Reply {
  status: number
  contentType: string
  headers: Headers
  /** The JSON-RPC response (last message of an SSE reply); undefined for an empty body. */
  body: Json | undefined
  /** Notifications that preceded the response on an SSE reply. */
  notifications: Json[]
  raw: string
}

export function envelope(caps: Json = ALL_CAPS, extra: Json = {}): Json {
  return {
    [META.protocolVersion]: VERSION,
    [META.clientCapabilities]: caps,
    [META.clientInfo]: { name: 'tessera-it', version: '0.0.1' },
    ...extra,
  }
}

/** `params` with the envelope added under `_meta` (keeps a `_meta` the caller already put there). */
export function withMeta(params: Json, options: CallOptions = {}): Json {
  const own = (params._meta as Json | undefined) ?? {}
  return { ...params, _meta: { ...envelope(options.caps ?? ALL_CAPS, options.meta), ...own } }
}

/** The headers a conforming client sends for `method` with `params`. */
export function mcpHeaders(method: string, params: Json): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': String((params._meta as Json | undefined)?.[META.protocolVersion] ?? VERSION),
    'mcp-method': method,
  }
  const name =
    method === 'resources/read'
      ? params.uri
      : method === 'tools/call' || method === 'prompts/get'
        ? params.name
        : method.startsWith('tasks/')
          ? params.taskId
          : undefined
  if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name)
  return headers
}

/**
 * A header value as a conforming client spells it: plain visible ASCII as is; anything else, and
 * anything that already looks encoded, in the `=?base64?…?=` sentinel.
 */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?$/.test(value)
  const looksEncoded = value.startsWith('=?base64?') && value.endsWith('?=')
  if (value === '' || (plain && !looksEncoded)) return value
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`
}

export function applyOverrides(
  headers: Record<string, string>,
  overrides?: Record<string, string | null>,
): Record<string, string> {
  const out = { ...headers }
  for (const [name, value] of Object.entries(overrides ?? {})) {
    if (value === null) delete out[name.toLowerCase()]
    else out[name.toLowerCase()] = value
  }
  return out
}

/** A client bound to one endpoint and one way of sending. */
export class McpHttpClient {
  constructor(
    readonly url: string,
    private readonly send: Send = (url, init) => fetch(url, init),
  ) {}

  /** Sends `method` with the envelope and mirrored headers, and reads the whole reply. */
  async request(method: string, params: Json = {}, options: CallOptions = {}): Promise<Reply> {
    const response = await this.open(method, params, options)
    return readReply(response)
  }

  /** Like `request`, but returns the live response (for streams the test reads itself). */
  open(method: string, params: Json = {}, options: CallOptions = {}): Promise<Response> {
    const full = withMeta(params, options)
    const body = { jsonrpc: '2.0', id: options.id ?? freshId(), method, params: full }
    const headers = applyOverrides(mcpHeaders(method, full), options.headers)
    return this.send(this.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: options.signal,
    })
  }

  /** Posts a body as given (a string is sent verbatim) with the default headers for `method`. */
  async postRaw(
    body: unknown,
    headers: Record<string, string | null> = {},
    method = 'tools/list',
  ): Promise<Reply> {
    const base = mcpHeaders(method, { _meta: envelope() })
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    const response = await this.send(this.url, {
      method: 'POST',
      headers: applyOverrides(base, headers),
      body: text,
    })
    return readReply(response)
  }

  /** `tools/call` shorthand. */
  callTool(name: string, args: Json = {}, options: CallOptions & { extra?: Json } = {}): Promise<Reply> {
    return this.request('tools/call', { name, arguments: args, ...options.extra }, options)
  }
}

/** Reads a reply to the end, JSON or SSE. */
export async function readReply(response: Response): Promise<Reply> {
  const contentType = response.headers.get('content-type') ?? ''
  const raw = await response.text()
  const base = { status: response.status, contentType, headers: response.headers, raw }
  if (contentType.startsWith('text/event-stream')) {
    const messages = parseSse(raw)
    const last = messages.at(-1)
    const final = last !== undefined && !('method' in last) ? last : undefined
    return { ...base, body: final, notifications: final ? messages.slice(0, -1) : messages }
  }
  return { ...base, body: raw === '' ? undefined : (JSON.parse(raw) as Json), notifications: [] }
}

/** Parses a complete SSE text into the JSON payloads of its events (comments ignored). */
export function parseSse(text: string): Json[] {
  const out: Json[] = []
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = dataOf(block)
    if (data !== undefined) out.push(JSON.parse(data) as Json)
  }
  return out
}

function dataOf(block: string): string | undefined {
  const lines = block.split(/\r?\n/).filter((line) => line.startsWith('data:'))
  if (lines.length === 0) return undefined
  return lines.map((line) => line.slice(5).replace(/^ /, '')).join('\n')
}

/** Reads an SSE response incrementally: `next()` yields each JSON-RPC message as it arrives. */
export class SseReader {
  private readonly events: EventReader

  constructor(response: Response) {
    this.events = new EventReader(response)
  }

  /** Raw text seen so far, comments included. */
  get seen(): string {
    return this.events.seen
  }

  get ended(): boolean {
    return this.events.ended
  }

  /** The next message, or undefined when the stream ended; rejects after `timeoutMs`. */
  next(timeoutMs = 2_000): Promise<Json | undefined> {
    return this.events.nextMessage(timeoutMs)
  }

  /** True when no message arrives within `ms` (an ended stream is quiet too). */
  quietFor(ms: number): Promise<boolean> {
    return this.events.quietFor(ms)
  }

  cancel(): Promise<void> {
    return this.events.cancel()
  }
}

export interface RawReply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * Posts with node:http so a test controls every header byte: arrays repeat a header, and `host`
 * is sent as given (fetch would not let a test forge it).
 */
export function rawPost(
  url: string,
  headers: Record<string, string | string[]>,
  body: string,
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST' }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    for (const [name, value] of Object.entries(headers)) req.setHeader(name, value)
    req.end(body)
  })
}

/** A full request body and its headers, for senders that are not the client above. */
export function requestParts(
  method: string,
  params: Json,
  options: CallOptions = {},
): { headers: Record<string, string>; body: string } {
  const full = withMeta(params, options)
  const body = JSON.stringify({ jsonrpc: '2.0', id: options.id ?? freshId(), method, params: full })
  return { headers: applyOverrides(mcpHeaders(method, full), options.headers), body }
}

/**
 * Simulated authentication: `Authorization: Bearer <json>` where the JSON is the AuthInfo itself;
 * no header means anonymous.
 */
export const bearerJsonAuth: HttpAuthenticator = {
  authenticate({ headers }) {
    const value = headers.get('authorization')
    if (value === undefined || !value.startsWith('Bearer ')) return undefined
    return JSON.parse(value.slice('Bearer '.length)) as AuthInfo
  },
}

export function bearer(auth: AuthInfo): Record<string, string> {
  return { authorization: `Bearer ${JSON.stringify(auth)}` }
}

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error'
  obj: Record<string, unknown>
  msg: string | undefined
}

/** A Logger that keeps every entry, for asserting what went to logs (and what did not go to the wire). */
export function capturingLogger(): Logger & { entries: LogEntry[] } {
  const entries: LogEntry[] = []
  const at =
    (level: LogEntry['level']) =>
    (obj: object, msg?: string): void => {
      entries.push({ level, obj: obj as Record<string, unknown>, msg })
    }
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

/** The `error` member of a JSON-RPC reply, or a thrown error naming what came instead. */
export function errorOf(reply: Reply): { code: number; message: string; data?: unknown } {
  const error = reply.body?.error as { code: number; message: string; data?: unknown } | undefined
  if (error === undefined)
    throw new Error(`expected an error, got ${reply.status} ${reply.raw.slice(0, 300)}`)
  return error
}

/** The `result` member of a JSON-RPC reply, or a thrown error naming what came instead. */
export function resultOf(reply: Reply): Json {
  const result = reply.body?.result as Json | undefined
  if (result === undefined)
    throw new Error(`expected a result, got ${reply.status} ${reply.raw.slice(0, 300)}`)
  return result
}

/** The `params` of a message (empty when there is none). */
export function paramsOf(message: Json | undefined): Json {
  return (message?.params as Json | undefined) ?? {}
}

/** The concatenated text blocks of a tool result. */
