/**
 * @module handshake-client
 * A deliberately small 2025-11-25 (handshake era) client for integration tests: `initialize` and
 * `notifications/initialized`, requests carrying `Mcp-Session-Id` and `MCP-Protocol-Version`,
 * answers read as JSON or as SSE (with every event id kept), server-to-client requests answered
 * by POSTing a JSON-RPC response, the GET stream with or without `Last-Event-ID`, and DELETE.
 * Everything is exposed raw enough for tests to check statuses, headers and event ids.
 */

export const HANDSHAKE_VERSION = '2025-11-25'

export type Json = Record<string, unknown>
export type RpcId = string | number

/** Client capabilities that let the server ask for anything. */
export const HANDSHAKE_CAPS: Json = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} }

/** One SSE event: `message` is the parsed JSON-RPC message, undefined for an empty (priming) event. */
export interface SseEvent {
  id?: string
  event?: string
  retry?: number
  data: string
  message?: Json
}

/** How a test answers a server-to-client request: a result, an error, or no answer at all. */
export type ClientAnswer =
  | { result: Json }
  | { error: { code: number; message: string; data?: unknown } }
  | 'ignore'
export type RequestHandler = (request: Json) => ClientAnswer | Promise<ClientAnswer>

/** A decoded answer: the final JSON-RPC response (if it came) and everything streamed before it. */
export interface HandshakeReply {
  status: number
  headers: Headers
  contentType: string
  /** The JSON-RPC response to our request; undefined when the stream closed before it (or for 202). */
  body: Json | undefined
  /** Every SSE event in order, priming events included (empty for JSON answers). */
  events: SseEvent[]
  /** Every JSON-RPC message in order (notifications, server requests, the response). */
  messages: Json[]
  notifications: Json[]
  /** Server-to-client requests seen on this answer. */
  requests: Json[]
  /** Id of the last SSE event that had one: what a reconnect sends as Last-Event-ID. */
  lastEventId: string | undefined
  /** The `retry:` field the server sent, if any. */
  retry: number | undefined
}

/** Reads an SSE response incrementally, one event at a time, without ever dropping a chunk. */
export class EventReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>
  private readonly decoder = new TextDecoder()
  private buffer = ''
  private readonly queue: SseEvent[] = []
  private pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined
  ended = false
  /** Raw text seen so far, comments included. */
  seen = ''

  constructor(readonly response: Response) {
    if (response.body === null) throw new Error('response has no body')
    this.reader = response.body.getReader()
  }

  /** The next event, or undefined once the stream ended; rejects after `timeoutMs` of silence. */
  async next(timeoutMs = 3_000): Promise<SseEvent | undefined> {
    const deadline = Date.now() + timeoutMs
    while (this.queue.length === 0 && !this.ended) {
      const remaining = deadline - Date.now()
      if (remaining <= 0) throw new Error(`no SSE event within ${timeoutMs} ms`)
      this.pending ??= this.reader.read()
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), remaining)
      })
      let chunk: ReadableStreamReadResult<Uint8Array> | 'timeout'
      try {
        chunk = await Promise.race([this.pending, timeout])
      } catch {
        // The connection was cut (reset): for a reader that is the end of the stream.
        chunk = { done: true, value: undefined }
      } finally {
        clearTimeout(timer)
      }
      if (chunk === 'timeout') throw new Error(`no SSE event within ${timeoutMs} ms`)
      this.pending = undefined
      if (chunk.done) {
        this.ended = true
        this.drain(true)
        break
      }
      const text = this.decoder.decode(chunk.value, { stream: true })
      this.seen += text
      this.buffer += text
      this.drain(false)
    }
    return this.queue.shift()
  }

  /** The next event that carries a JSON-RPC message (priming events skipped). */
  async nextMessage(timeoutMs = 3_000): Promise<Json | undefined> {
    for (;;) {
      const event = await this.next(timeoutMs)
      if (event === undefined) return undefined
      if (event.message !== undefined) return event.message
    }
  }

  /** True when no event arrives within `ms` (an ended stream counts as quiet). */
  async quietFor(ms: number): Promise<boolean> {
    let event: SseEvent | undefined
    try {
      event = await this.next(ms)
    } catch {
      return true
    }
    if (event === undefined) return true
    this.queue.unshift(event)
    return false
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => {})
  }

  private drain(final: boolean): void {
    const blocks = this.buffer.split(/\r?\n\r?\n/)
    this.buffer = final ? '' : (blocks.pop() ?? '')
    for (const block of blocks) {
      const event = parseEvent(block)
      if (event !== undefined) this.queue.push(event)
    }
  }
}

/** One SSE block; undefined for a block of comments only. */
export function parseEvent(block: string): SseEvent | undefined {
  const event: SseEvent = { data: '' }
  const data: string[] = []
  let any = false
  for (const line of block.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    any = true
    if (field === 'id') event.id = value
    else if (field === 'event') event.event = value
    else if (field === 'retry') event.retry = Number(value)
    else if (field === 'data') data.push(value)
  }
  if (!any) return undefined
  event.data = data.join('\n')
  if (event.data.trim() !== '') event.message = JSON.parse(event.data) as Json
  return event
}

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

let nextId = 1
export function freshId(): number {
  return nextId++
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

/**
 * Reads an answer: JSON as is; SSE to its end, answering server requests through `onRequest`
 * (no handler: they stay unanswered). The response to `expectId` becomes `body`.
 */
export async function readAnswer(
  response: Response,
  options: {
    client?: HandshakeClient
    expectId?: RpcId
    onRequest?: RequestHandler
    timeoutMs?: number
  } = {},
): Promise<HandshakeReply> {
  const contentType = response.headers.get('content-type') ?? ''
  const reply: HandshakeReply = {
    status: response.status,
    headers: response.headers,
    contentType,
    body: undefined,
    events: [],
    messages: [],
    notifications: [],
    requests: [],
    lastEventId: undefined,
    retry: undefined,
  }
  if (!contentType.startsWith('text/event-stream')) {
    const raw = await response.text()
    if (raw !== '') {
      reply.body = JSON.parse(raw) as Json
      reply.messages.push(reply.body)
    }
    return reply
  }
  const reader = new EventReader(response)
  const answering: Promise<unknown>[] = []
  for (;;) {
    const event = await reader.next(options.timeoutMs ?? 5_000)
    if (event === undefined) break
    reply.events.push(event)
    if (event.id !== undefined) reply.lastEventId = event.id
    if (event.retry !== undefined) reply.retry = event.retry
    const message = event.message
    if (message === undefined) continue
    reply.messages.push(message)
    if (typeof message.method === 'string' && 'id' in message) {
      reply.requests.push(message)
      const handler = options.onRequest
      if (handler && options.client) {
        const client = options.client
        answering.push(
          Promise.resolve(handler(message)).then((answer) =>
            answer === 'ignore'
              ? undefined
              : client.answer(message.id as RpcId, answer).then((r) => r.text()),
          ),
        )
      }
    } else if (typeof message.method === 'string') {
      reply.notifications.push(message)
    } else if (options.expectId === undefined || message.id === options.expectId) {
      reply.body = message
    }
  }
  await Promise.all(answering)
  return reply
}

/** The `result` member of a reply, or a thrown error naming what came instead. */
export function resultOf(reply: HandshakeReply): Json {
  const result = reply.body?.result as Json | undefined
  if (result === undefined)
    throw new Error(`expected a result, got ${reply.status} ${JSON.stringify(reply.body ?? reply.messages)}`)
  return result
}

/** The `error` member of a reply, or a thrown error naming what came instead. */
export function errorOf(reply: HandshakeReply): { code: number; message: string; data?: unknown } {
  const error = reply.body?.error as { code: number; message: string; data?: unknown } | undefined
  if (error === undefined)
    throw new Error(`expected an error, got ${reply.status} ${JSON.stringify(reply.body ?? reply.messages)}`)
  return error
}

/** The concatenated text blocks of a tool result. */
export function textOf(result: Json): string {
  const content = (result.content as Array<{ type: string; text?: string }> | undefined) ?? []
  return content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n')
}

/** Accepts every elicitation with `content`, and answers roots/sampling plausibly. */
export function acceptWith(content: Json): RequestHandler {
  return (request) => {
    if (request.method === 'elicitation/create') return { result: { action: 'accept', content } }
    if (request.method === 'roots/list')
      return { result: { roots: [{ uri: 'file:///workspace', name: 'ws' }] } }
    if (request.method === 'sampling/createMessage') {
      return {
        result: { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'test-model' },
      }
    }
    return { error: { code: -32601, message: 'Method not found' } }
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** A promise with its resolver outside, for tools a test releases at a chosen moment. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void
  const promise = new Promise<void>((resolve) => {
    open = resolve
  })
  return { promise, open }
}
