/**
 * @module node-reply-writer
 * `ReplyWriter` over a node:http response: JSON with a length, empty answers, and SSE streams.
 */
import type { ServerResponse } from 'node:http'
import { SuccessStatus } from '../../errors.ts'
import type { ReplyWriter, SseWriter } from './reply-writer.ts'

export class NodeReplyWriter implements ReplyWriter {
  private ended = false

  constructor(private readonly res: ServerResponse) {}

  get closed(): boolean {
    return this.ended || this.res.destroyed || this.res.writableEnded
  }

  /** A callback registered once the connection already closed still runs (on the next microtask). */
  onClose(callback: () => void): void {
    if (this.res.closed) queueMicrotask(callback)
    else this.res.once('close', callback)
  }

  json(status: number, body: string, headers?: Record<string, string>): void {
    this.ended = true
    const h: Record<string, string | number> = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    }
    if (headers) Object.assign(h, headers)
    this.res.writeHead(status, h)
    this.res.end(body)
  }

  empty(status: number, headers?: Record<string, string>): void {
    this.ended = true
    this.res.writeHead(status, headers)
    this.res.end()
  }

  sse(headers?: Record<string, string>): SseWriter {
    this.res.writeHead(SuccessStatus.ok, headers)
    this.res.flushHeaders()
    const res = this.res
    return {
      write: (frame) => {
        res.write(frame)
      },
      end: () => {
        this.ended = true
        res.end()
      },
    }
  }
}
