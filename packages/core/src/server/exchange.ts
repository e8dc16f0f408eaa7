/**
 * @module exchange
 * What a transport hands the server for one request, in either era: the headers to check (HTTP
 * only), the authenticated identity, a way to send messages that belong to this request before
 * its response, and a cancellation signal. The server never sees a socket, a Request or a stream.
 */
import type { JsonObject } from '../protocol/jsonrpc/message.ts'
import type { HeaderView } from '../protocol/modern/header-view.ts'
import type { AuthInfo } from '../security/request-state/binding.ts'

export interface Exchange {
  /** HTTP request headers; undefined on stdio, where there is no header layer. */
  readonly headers: HeaderView | undefined
  /** The authenticated identity of the caller, when the transport authenticated one. */
  readonly auth: AuthInfo | undefined
  /**
   * The client's network address, when the transport knows it (behind trusted proxies, the one
   * they forwarded for): whose rate limits an anonymous request counts against.
   */
  readonly client?: string
  /**
   * Sends one JSON-RPC message that belongs to this request, before its response: a notification
   * (progress, log) or, in the handshake era, a request to the client. HTTP switches to SSE.
   */
  send(message: JsonObject): void
  /** Aborts when the client disconnects (2026-07-28 over HTTP); created on first use. */
  readonly signal: AbortSignal
  /**
   * Handshake era over HTTP only: closes the response connection while the request keeps
   * running; the client resumes with `Last-Event-ID` (SSE polling). Absent where it means nothing.
   */
  closeStream?(): void
  /**
   * Keeps the platform running this request's work until `work` settles, after the response is
   * sent: a task's run, on a Worker (its `ctx.waitUntil`), where work the response leaves behind
   * is otherwise cancelled. Absent where the process outlives its responses.
   */
  waitUntil?(work: Promise<unknown>): void
}
