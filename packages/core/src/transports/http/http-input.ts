/**
 * @module http-input
 * One HTTP request as both faces (node:http and fetch) hand it to the shared handling.
 */
import { TesseraError } from '../../errors.ts'
import type { HeaderView } from '../../protocol/modern/header-view.ts'

export interface HttpInput {
  method: string
  /** The request target as sent: path and query. */
  target: string
  headers: HeaderView
  /** The address of the peer that connected (a proxy, when one is in front); undefined when unknown. */
  peer?: string
  /** The client's address: the peer's, or behind trusted proxies the one they forwarded for (set once read). */
  client?: string
  /**
   * Reads the body as text. Rejects with a `TesseraError` when it exceeds the size limit, does not
   * arrive in time, or was already consumed by a framework that kept no copy of it.
   */
  body(): Promise<string>
  /**
   * Called once the request is known to be a 2026-07-28 `subscriptions/listen` stream, which is
   * long by design and not load: the node face gives its `maxConcurrentRequests` slot back. What
   * the request is comes from its parsed body and the era it was classified in, never from a
   * header alone, so nothing else is ever let past the limit.
   */
  becameStream?(): void
  /** The platform's way to keep work going after the response (a Worker's `ctx.waitUntil`); absent on Node. */
  waitUntil?(work: Promise<unknown>): void
}

export const bodyTooLarge = (): TesseraError =>
  new TesseraError('TESSERA_PAYLOAD_TOO_LARGE', 'Payload too large: the request body exceeds the limit.')

export const bodyTimedOut = (ms: number): TesseraError =>
  new TesseraError(
    'TESSERA_REQUEST_TIMEOUT',
    `Request timeout: the request body did not arrive within ${ms} ms.`,
  )
