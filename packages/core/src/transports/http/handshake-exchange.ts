/**
 * @module handshake-exchange
 * The exchange of one 2025-11-25 POST. It answers as JSON until something must be streamed
 * (a notification, a request to the client, or the handler closing the stream for polling);
 * from then on every message is written to the event store first, under an id that names the
 * stream, so a client that lost the connection resumes with `Last-Event-ID` and misses nothing.
 */
import { SuccessStatus } from '../../errors.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { HeaderView } from '../../protocol/modern/header-view.ts'
import { encodeReply, type ResponseReply } from '../../reply.ts'
import { randomId } from '../../security/random.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import type { EventStore, Exchange } from '../../server/door.ts'
import { type ReplyWriter, SSE_HEADERS, type SseWriter } from './reply-writer.ts'

/** Milliseconds a client waits before reconnecting after the server closed the connection. */
export const RETRY_MS = 500

export function eventFrame(id: string, message: JsonObject | undefined): string {
  return message === undefined
    ? `id: ${id}\ndata: \n\n`
    : `id: ${id}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`
}

/** A fresh stream of a session: its id starts with the session's, so a resume names its owner. */
export function newStreamId(sessionId: string, kind = 'post'): string {
  return `${sessionId}.${kind}-${randomId(9)}`
}

export class HandshakeHttpExchange implements Exchange {
  #stream: SseWriter | undefined
  #streamId: string | undefined
  #detached = false
  #answered = false
  #chain: Promise<void> = Promise.resolve()
  readonly #idle = new AbortController()
  readonly #writer: ReplyWriter
  readonly #events: EventStore
  readonly #sessionId: string

  constructor(
    readonly headers: HeaderView,
    readonly auth: AuthInfo | undefined,
    writer: ReplyWriter,
    events: EventStore,
    sessionId: string,
    readonly client?: string,
  ) {
    this.#writer = writer
    this.#events = events
    this.#sessionId = sessionId
  }

  /** The session's own signal replaces this one: a disconnect is not a cancellation in this era. */
  get signal(): AbortSignal {
    return this.#idle.signal
  }

  send(message: JsonObject): void {
    if (this.#answered) return
    this.#emit(message)
  }

  closeStream(): void {
    this.#open()
    this.#chain = this.#chain.then(() => {
      this.#detached = true
      this.#stream?.end()
    })
  }

  /** Sends the final response (after every earlier event) and finishes the stream. */
  async respond(reply: ResponseReply, headers?: Record<string, string>): Promise<void> {
    this.#answered = true
    if (!this.#stream) {
      if (!this.#writer.closed) this.#writer.json(reply.status, encodeReply(reply), headers)
      return
    }
    this.#emit(reply.body)
    await this.#finish()
  }

  /** A cancelled call sends nothing more: its stream (if any) ends cleanly, resumers stop. */
  async abandon(): Promise<void> {
    this.#answered = true
    if (!this.#stream) {
      if (!this.#writer.closed) this.#writer.empty(SuccessStatus.accepted)
      return
    }
    await this.#finish()
  }

  #finish(): Promise<void> {
    const streamId = this.#streamId!
    this.#chain = this.#chain.then(async () => {
      await this.#events.finish(streamId)
      if (!this.#detached && !this.#writer.closed) this.#stream?.end()
    })
    return this.#chain
  }

  #open(): void {
    if (this.#stream) return
    const streamId = newStreamId(this.#sessionId)
    const stream = this.#writer.sse(SSE_HEADERS)
    this.#streamId = streamId
    this.#stream = stream
    this.#chain = this.#chain.then(async () => {
      const id = await this.#events.append(streamId, undefined)
      if (!this.#writer.closed) stream.write(`id: ${id}\nretry: ${RETRY_MS}\ndata: \n\n`)
    })
  }

  #emit(message: JsonObject): void {
    this.#open()
    const streamId = this.#streamId!
    this.#chain = this.#chain.then(async () => {
      const id = await this.#events.append(streamId, message)
      if (!this.#detached && !this.#writer.closed) this.#stream?.write(eventFrame(id, message))
    })
  }
}
