/**
 * @module legacy-exchange
 * The exchange of one handshake-era POST. It answers as JSON until something must be streamed
 * (a notification, a server-to-client request, or the handler closing the stream for polling);
 * from then on every message is written to the event store first, under an id that names the
 * stream, so a client that lost the connection resumes with `Last-Event-ID` and misses nothing.
 * A disconnect is not a cancellation in this era; `notifications/cancelled` is.
 */
import { randomBytes } from 'node:crypto'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { HeaderView } from '../../protocol/modern/header-view.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import type { LegacyExchange } from '../../server/exchange.ts'
import type { LegacySession } from '../../server/legacy/session-store.ts'
import type { HandshakeRuntime } from '../../server/server-core.ts'
import { type ReplyWriter, SSE_HEADERS, type SseWriter } from './reply-writer.ts'

/** Milliseconds a client waits before reconnecting after the server closed the connection. */
export const RETRY_MS = 500

export function eventFrame(id: string, message: JsonObject | undefined): string {
  return message === undefined
    ? `id: ${id}\ndata: \n\n`
    : `id: ${id}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`
}

export class LegacyHttpExchange implements LegacyExchange {
  readonly signal: AbortSignal
  private stream: SseWriter | undefined
  private streamId: string | undefined
  private detached = false
  private answered = false
  private chain: Promise<void> = Promise.resolve()

  constructor(
    readonly headers: HeaderView,
    readonly auth: AuthInfo | undefined,
    private readonly writer: ReplyWriter,
    private readonly runtime: HandshakeRuntime,
    private readonly session: LegacySession,
    controller: AbortController,
  ) {
    this.signal = controller.signal
  }

  notify(method: string, params: JsonObject): void {
    if (this.signal.aborted || this.answered) return
    this.emit({ jsonrpc: '2.0', method, params })
  }

  sendRequest(method: string, params: JsonObject | undefined): Promise<JsonObject> {
    this.open()
    return this.runtime.outbound.send(this.session.id, (message) => this.emit(message), method, params, {
      timeoutMs: this.runtime.requestTimeoutMs,
      signal: this.signal,
    })
  }

  closeStream(): void {
    this.open()
    this.chain = this.chain.then(() => {
      this.detached = true
      this.stream?.end()
    })
  }

  /** Sends the final response (after every earlier event) and finishes the stream. */
  async respond(status: number, body: JsonObject): Promise<void> {
    this.answered = true
    if (!this.stream) {
      if (!this.writer.closed) this.writer.json(status, JSON.stringify(body))
      return
    }
    this.emit(body)
    const streamId = this.streamId!
    this.chain = this.chain.then(async () => {
      await this.runtime.events.finish(streamId)
      if (!this.detached && !this.writer.closed) this.stream?.end()
    })
    await this.chain
  }

  /** A cancelled call sends nothing more: its stream (if any) ends cleanly, resumers stop. */
  async abandon(): Promise<void> {
    this.answered = true
    if (!this.stream) {
      if (!this.writer.closed) this.writer.empty(202)
      return
    }
    const streamId = this.streamId!
    this.chain = this.chain.then(async () => {
      await this.runtime.events.finish(streamId)
      if (!this.detached && !this.writer.closed) this.stream?.end()
    })
    await this.chain
  }

  private open(): void {
    if (this.stream) return
    this.streamId = `${this.session.id}.${randomBytes(9).toString('base64url')}`
    const stream = this.writer.sse(SSE_HEADERS)
    this.stream = stream
    const streamId = this.streamId
    this.chain = this.chain.then(async () => {
      const id = await this.runtime.events.append(streamId, undefined)
      if (!this.writer.closed) stream.write(`id: ${id}\nretry: ${RETRY_MS}\ndata: \n\n`)
    })
  }

  private emit(message: JsonObject): void {
    this.open()
    const streamId = this.streamId!
    this.chain = this.chain.then(async () => {
      const id = await this.runtime.events.append(streamId, message)
      if (!this.detached && !this.writer.closed) this.stream?.write(eventFrame(id, message))
    })
  }
}

export function streamIdFor(session: LegacySession, kind: string): string {
  return `${session.id}.${kind}-${randomBytes(9).toString('base64url')}`
}
