/**
 * @module node-reply-writer
 * `ReplyWriter` over a node:http response: JSON with a length, empty answers, and SSE streams.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { SuccessStatus } from '../../errors.ts'
import type { Observer } from '../../observation/observer.ts'
import type { ReplyWriter, SseWriter } from './reply-writer.ts'

export class NodeReplyWriter implements ReplyWriter {
  #ended = false

  readonly #res: ServerResponse
  readonly #req: IncomingMessage | undefined
  readonly #observer: Observer | undefined

  /**
   * `req` is the request answered: a refusal sent before its body arrived waits for the rest.
   * `observer` is told of each JSON-RPC error the endpoint sends.
   */
  constructor(res: ServerResponse, req?: IncomingMessage, observer?: Observer) {
    this.#res = res
    this.#req = req
    this.#observer = observer
  }

  get closed(): boolean {
    return this.#ended || this.#res.destroyed || this.#res.writableEnded
  }

  /** A callback registered once the connection already closed still runs (on the next microtask). */
  onClose(callback: () => void): void {
    if (this.#res.closed) queueMicrotask(callback)
    else this.#res.once('close', callback)
  }

  json(status: number, body: string, headers?: Record<string, string>): void {
    this.#ended = true
    const h: Record<string, string | number> = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    }
    if (headers) Object.assign(h, headers)
    this.#res.writeHead(status, h)
    if (this.#observer?.wants('error-sent')) announceError(this.#observer, body)
    if (this.#req !== undefined && bodyStillComing(this.#req)) endAfterTheBody(this.#req, this.#res, body)
    else this.#res.end(body)
  }

  empty(status: number, headers?: Record<string, string>): void {
    this.#ended = true
    this.#res.writeHead(status, headers)
    this.#res.end()
  }

  sse(headers?: Record<string, string>): SseWriter {
    this.#res.writeHead(SuccessStatus.ok, headers)
    this.#res.flushHeaders()
    const res = this.#res
    return {
      write: (frame) => {
        res.write(frame)
      },
      end: () => {
        this.#ended = true
        res.end()
      },
    }
  }
}

/**
 * Whether the client may still be sending a body. A request without one is complete as soon as its
 * headers are, though `complete` is only set after the listener has run.
 */
function bodyStillComing(req: IncomingMessage): boolean {
  if (req.complete) return false
  const length = req.headers['content-length']
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

/** How long a refused request's remaining body is read and thrown away, at most. */
const LINGER_MS = 5_000
/** A client that sends nothing for this long is not sending the rest of its body. */
const LINGER_IDLE_MS = 500

/**
 * A refusal sent while the client is still sending its body (413, or 401 before the body was
 * read). Closing the socket at once, with the client's bytes unread, makes the kernel reset the
 * connection, and a client still writing takes the reset for the answer (fetch reports EPIPE, not
 * the 413). So the answer is sent whole, what else the client sends is read and thrown away, and
 * the response ends when the body has ended; a client that stalls, or is still sending after
 * `LINGER_MS`, has had its answer for that long and is cut.
 */
function endAfterTheBody(req: IncomingMessage, res: ServerResponse, body: string): void {
  res.write(body)
  let idle = setTimeout(() => cut(), LINGER_IDLE_MS)
  const cap = setTimeout(() => cut(), LINGER_MS)
  const onData = (): void => {
    clearTimeout(idle)
    idle = setTimeout(() => cut(), LINGER_IDLE_MS)
  }
  const settle = (): void => {
    clearTimeout(idle)
    clearTimeout(cap)
    req.off('data', onData).off('end', finish).off('close', finish)
  }
  const finish = (): void => {
    settle()
    res.end()
  }
  const cut = (): void => {
    settle()
    res.end()
    // What is left of the body would be read as the next request on a kept-alive connection.
    res.destroy()
  }
  req.on('data', onData).once('end', finish).once('close', finish)
  req.resume()
}

/** The JSON-RPC error an answer carries, if any, read back from what was written. */
function announceError(observer: Observer, body: string): void {
  if (!body.includes('"error"')) return
  let error: { code?: unknown; message?: unknown } | undefined
  try {
    error = (JSON.parse(body) as { error?: { code?: unknown; message?: unknown } }).error
  } catch {
    return
  }
  if (typeof error?.code === 'number' && typeof error.message === 'string')
    observer.announce({ step: 'error-sent', code: error.code, message: error.message })
}
