/**
 * @module fetch
 * The web-standard face: `(Request) => Promise<Response>` for Hono, Bun, Deno and Workers. Same
 * core as the node:http face; only body reading and reply writing differ. Repeated headers cannot
 * be told apart in a `Headers` object (they arrive joined), so repeats show up as mismatches.
 */
import { SuccessStatus } from '../../errors.ts'
import { assertKnownOptions } from '../../option-checks.ts'
import type { HeaderView } from '../../protocol/modern/header-view.ts'
import { doorOf, type McpServer } from '../../server/door.ts'
import { serveDocument } from './auth-http.ts'
import { handleHttpRequest } from './handle-request.ts'
import { isProbe, serveProbe } from './health-http.ts'
import { bodyTimedOut, bodyTooLarge, type HttpInput } from './http-input.ts'
import {
  HTTP_OPTION_NAMES,
  type HttpOptions,
  type ResolvedHttpOptions,
  resolveHttpOptions,
} from './options.ts'
import { type ReplyWriter, type SseWriter, writeFault } from './reply-writer.ts'
import { type RequestUrl, requestUrl } from './request-url.ts'

/**
 * What a Worker passes its fetch handler after the request and its bindings: `waitUntil` keeps
 * work going after the response is sent (a task's run, a handshake-era request whose stream the
 * server closed), which the platform would otherwise cancel.
 */
export interface FetchContext {
  /** Keeps the Worker running until `work` settles, after the response is sent. */
  waitUntil?(work: Promise<unknown>): void
  /**
   * The address of the peer that connected, which `trustProxy` is matched against: give it where
   * the runtime tells it (Bun's `server.requestIP(request)?.address`, Deno's
   * `info.remoteAddr.hostname`).
   */
  remoteAddress?: string
}

/**
 * The web-standard face of a server (`createFetchHandler`): a `Request` in, a `Response` out, for
 * Hono, Bun, Deno and Workers. Export it as a Worker's `fetch` and Workers pass the context; Bun
 * and Deno pass other values there, which are not read.
 */
export type FetchHandler = (request: Request, env?: unknown, context?: FetchContext) => Promise<Response>

/** Host/Origin protection defaults to the loopback names; pass `allowedHosts` for a public host. */
export function createFetchHandler(server: McpServer, options?: HttpOptions): FetchHandler {
  const door = doorOf(server, 'createFetchHandler')
  assertKnownOptions(options, HTTP_OPTION_NAMES, 'createFetchHandler')
  const resolved = resolveHttpOptions(options, true)
  door.opened()
  return (request, _env, context) => {
    const writer = new FetchReplyWriter(request)
    const url = requestUrl(request.url)
    if (isProbe(resolved, url.pathname)) {
      return serveProbe(door, url.pathname, request.method, writer).then(() => writer.response)
    }
    if (serveDocument(resolved, url.pathname, request.method, writer)) return writer.response
    if (url.pathname !== resolved.path) {
      writeFault(writer, 'TESSERA_NOT_FOUND', 'Not found.')
      return writer.response
    }
    const headers = new FetchHeaderView(request.headers, url)
    if (headers.bytes > resolved.maxHeaderBytes) {
      writeFault(writer, 'TESSERA_HEADERS_TOO_LARGE', 'Request header fields too large.')
      return writer.response
    }
    const waitUntil = typeof context?.waitUntil === 'function' ? context.waitUntil.bind(context) : undefined
    const input: HttpInput = {
      method: request.method,
      target: url.target,
      headers,
      body: () => readBody(request, headers, resolved),
    }
    if (waitUntil !== undefined) input.waitUntil = waitUntil
    if (typeof context?.remoteAddress === 'string') input.peer = context.remoteAddress
    const handling = handleHttpRequest(door, resolved, input, writer).catch((error: unknown) => {
      // A client that left mid-body is routine; anything else is a failure of ours.
      if (request.signal.aborted) door.logger.debug({ event: 'http_client_gone', err: error }, 'client left')
      else door.logger.error({ event: 'http_failed', err: error }, 'HTTP handling failed')
      if (!writer.answered) writeFault(writer, 'TESSERA_TRANSPORT_FAILED', 'Internal error.')
    })
    // On a Worker, the request lives until its handling and the events it published are done.
    waitUntil?.(handling.then(() => door.published()))
    return writer.response
  }
}

/**
 * The request's headers, read once into a map while their size is counted: the checks read about
 * ten of them, a third absent, and a runtime's `Headers.get` searches its list on every call.
 */
class FetchHeaderView implements HeaderView {
  /** What the names and values weigh, as the size limit counts them. */
  readonly bytes: number
  readonly #values = new Map<string, string>()
  /** A Request built in-process has no Host header; its URL names the host instead. */
  readonly #url: RequestUrl

  constructor(headers: Headers, url: RequestUrl) {
    let bytes = 0
    const values = this.#values
    headers.forEach((value, name) => {
      bytes += name.length + value.length + 4
      // Iteration yields each Set-Cookie on its own (no request should carry one); get() joins them.
      const earlier = name === 'set-cookie' ? values.get(name) : undefined
      values.set(name, earlier === undefined ? value : `${earlier}, ${value}`)
    })
    this.bytes = bytes
    this.#url = url
  }
  get(name: string): string | undefined {
    const value = this.#values.get(name)
    if (value === undefined && name === 'host') return this.#url.host()
    return value
  }
  isRepeated(): boolean {
    return false
  }
}

/**
 * The body as text, at most `maxBodyBytes` of it, within `bodyTimeoutMs`. A body of declared
 * length is read whole by the runtime (`arrayBuffer()`, native on Bun and Deno, where reading a
 * `ReadableStream` chunk by chunk in JavaScript costs more than the rest of the request): HTTP/1.1
 * framing ends a body at its `Content-Length` and HTTP/2 refuses a body that disagrees with it,
 * so what is read is bounded by the declared length, which is checked first; the length read is
 * checked again all the same. A body of unknown length is streamed, and cancelled as soon as it
 * passes the limit.
 */
function readBody(request: Request, headers: HeaderView, options: ResolvedHttpOptions): Promise<string> {
  const declared = headers.get('content-length')
  if (Number(declared) > options.maxBodyBytes) return Promise.reject(bodyTooLarge())
  if (declared !== undefined) return readDeclared(request, options)
  return request.body === null ? Promise.resolve('') : readStreamed(request.body, options)
}

/** One promise settled by the read or by the deadline, whichever comes first. */
function readDeclared(request: Request, options: ResolvedHttpOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const deadline = options.bodyDeadlines.add(() => reject(bodyTimedOut(options.bodyTimeoutMs)))
    // A read that outlives its deadline settles into a promise already settled: nothing observes it.
    request.arrayBuffer().then(
      (bytes) => {
        deadline.cancel()
        if (bytes.byteLength > options.maxBodyBytes) reject(bodyTooLarge())
        else resolve(UTF8.decode(bytes))
      },
      (error: unknown) => {
        deadline.cancel()
        reject(error)
      },
    )
  })
}

/**
 * One promise, as for a declared length, settled by the end of the stream, by the limit or by the
 * deadline, whichever comes first. A read that ends after the promise settled finds it settled.
 */
function readStreamed(body: ReadableStream<Uint8Array>, options: ResolvedHttpOptions): Promise<string> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  return new Promise((resolve, reject) => {
    const fail = (error: unknown): void => {
      deadline.cancel()
      // Whatever else the client sends is discarded, not buffered.
      reader.cancel().catch(() => {})
      reject(error)
    }
    const deadline = options.bodyDeadlines.add(() => fail(bodyTimedOut(options.bodyTimeoutMs)))
    const read = (): void => {
      reader.read().then(({ done, value }) => {
        if (done) {
          deadline.cancel()
          return resolve(utf8(chunks, size))
        }
        size += value.byteLength
        if (size > options.maxBodyBytes) return fail(bodyTooLarge())
        chunks.push(value)
        read()
      }, fail)
    }
    read()
  })
}

/**
 * UTF-8 that keeps a byte order mark, as the node:http face keeps it (JSON does not allow one
 * there). Decoding without `stream` keeps no state between calls, so one decoder serves all.
 */
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true })

/** The body's bytes as text, decoded whole so a character split across chunks stays one. */
function utf8(chunks: readonly Uint8Array[], size: number): string {
  if (chunks.length === 1) return UTF8.decode(chunks[0])
  const whole = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    whole.set(chunk, at)
    at += chunk.byteLength
  }
  return UTF8.decode(whole)
}

/** A `Response` copies the headers it is given, so one object serves every plain JSON answer. */
const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' }

/**
 * The reply to one `Request`. It follows the request's signal only once something wants to know
 * that the client left (a handler's signal, a stream): a request answered at once never touches
 * it. Deno warns on the first touch of a signal that it also aborts after a served response.
 */
class FetchReplyWriter implements ReplyWriter {
  readonly response: Promise<Response>
  answered = false
  #resolve!: (response: Response) => void
  #finished = false
  /** Made by the first `onClose`: a request answered at once registers none. */
  #closeCallbacks: Array<() => void> | undefined
  #gone = false
  #following = false
  readonly #request: Request

  constructor(request: Request) {
    this.#request = request
    this.response = new Promise((resolve) => {
      this.#resolve = resolve
    })
  }

  get closed(): boolean {
    return this.#finished || this.#gone
  }

  /** A callback registered once the client already left still runs (on the next microtask). */
  onClose(callback: () => void): void {
    this.#follow()
    if (this.#gone) queueMicrotask(callback)
    else if (this.#closeCallbacks === undefined) this.#closeCallbacks = [callback]
    else this.#closeCallbacks.push(callback)
  }

  #follow(): void {
    if (this.#following) return
    this.#following = true
    const signal = this.#request.signal
    const left = (): void => {
      this.#fireClose()
      // Nobody reads this answer; it settles the Response a runtime may still be awaiting.
      if (!this.answered) writeFault(this, 'TESSERA_TRANSPORT_FAILED', 'The client left before the answer.')
    }
    if (signal.aborted) left()
    else signal.addEventListener('abort', left, { once: true })
  }

  json(status: number, body: string, headers?: Record<string, string>): void {
    const all = headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers }
    this.#answer(new Response(body, { status, headers: all }))
    this.#finished = true
  }

  empty(status: number, headers?: Record<string, string>): void {
    this.#answer(new Response(null, { status, headers }))
    this.#finished = true
  }

  sse(headers?: Record<string, string>): SseWriter {
    const encoder = new TextEncoder()
    let controller!: ReadableStreamDefaultController<Uint8Array>
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c
      },
      cancel: () => {
        this.#finished = true
        this.#fireClose()
      },
    })
    this.#answer(new Response(body, { status: SuccessStatus.ok, headers }))
    return {
      write: (frame) => {
        if (!this.#finished) controller.enqueue(encoder.encode(frame))
      },
      end: () => {
        if (this.#finished) return
        this.#finished = true
        controller.close()
      },
    }
  }

  #answer(response: Response): void {
    this.answered = true
    this.#resolve(response)
  }

  #fireClose(): void {
    this.#gone = true
    const callbacks = this.#closeCallbacks ?? []
    this.#closeCallbacks = undefined
    for (const callback of callbacks) callback()
  }
}
