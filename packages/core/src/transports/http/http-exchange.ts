/**
 * @module http-exchange
 * The `Exchange` of one 2026-07-28 HTTP request. A request answers as plain JSON until its handler emits a
 * notification (progress, log); the first one switches the reply to an SSE stream, so requests
 * that never notify pay nothing for streaming. Client disconnect aborts the handler's signal.
 */
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { HeaderView } from '../../protocol/modern/header-view.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import type { Exchange } from '../../server/door.ts'
import { type ReplyWriter, SSE_HEADERS, type SseWriter, sseFrame } from './reply-writer.ts'

export class HttpExchange implements Exchange {
  #controller: AbortController | undefined
  #stream: SseWriter | undefined
  #done = false
  readonly #writer: ReplyWriter

  constructor(
    readonly headers: HeaderView,
    readonly auth: AuthInfo | undefined,
    writer: ReplyWriter,
    readonly waitUntil?: (work: Promise<unknown>) => void,
    readonly client?: string,
  ) {
    this.#writer = writer
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController()
      // One reason whenever the client left: before the handler first looked, or after.
      if (this.#writer.closed && !this.#done) this.#abortUnlessDone()
      else this.#writer.onClose(() => this.#abortUnlessDone())
    }
    return this.#controller.signal
  }

  send(message: JsonObject): void {
    if (this.#done || this.#writer.closed) return
    this.#stream ??= this.#writer.sse(SSE_HEADERS)
    this.#stream.write(sseFrame(message))
  }

  /** Sends the final response (already serialized): on the SSE stream if one was opened, else as JSON. */
  respond(status: number, text: string, headers?: Record<string, string>): void {
    this.#done = true
    if (this.#writer.closed) return
    if (this.#stream) {
      this.#stream.write(`event: message\ndata: ${text}\n\n`)
      this.#stream.end()
      return
    }
    this.#writer.json(status, text, headers)
  }

  #abortUnlessDone(): void {
    if (!this.#done) this.#controller?.abort(new Error('client disconnected'))
  }
}
