/**
 * @module exchange
 * What a transport hands the server for one request: the headers to check (HTTP only), the
 * authenticated identity, a way to send notifications that belong to this request, and a
 * cancellation signal. The server never sees a socket, a Request or a stream.
 */
import type { JsonObject } from '../protocol/jsonrpc/message.ts'
import type { HeaderView } from '../protocol/modern/header-view.ts'
import type { AuthInfo } from '../security/request-state/binding.ts'

export interface Exchange {
  /** HTTP request headers; undefined on stdio, where there is no header layer. */
  readonly headers: HeaderView | undefined
  /** The authenticated identity of the caller, when the transport authenticated one. */
  readonly auth: AuthInfo | undefined
  /** Sends a notification that belongs to this request (progress, log). HTTP switches to SSE. */
  notify(method: string, params: JsonObject): void
  /** Aborts when the client disconnects or cancels; created on first use. */
  readonly signal: AbortSignal
  /**
   * Handshake era only: closes the response connection while the request keeps running; the
   * client resumes with `Last-Event-ID` (SSE polling). Absent where it means nothing.
   */
  closeStream?(): void
}

/** The exchange of a handshake-era request, which may also send requests to the client. */
export interface LegacyExchange extends Exchange {
  sendRequest(method: string, params: JsonObject | undefined): Promise<JsonObject>
}
