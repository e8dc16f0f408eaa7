/**
 * @module reply-writer
 * The small surface both HTTP faces implement to answer one request: a whole JSON body, an empty
 * status, or an SSE stream. The protocol side never touches a socket or a web stream.
 */

export interface SseWriter {
  /** Writes one SSE frame (already formatted). */
  write(frame: string): void
  end(): void
}

export interface ReplyWriter {
  json(status: number, body: string, headers?: Record<string, string>): void
  empty(status: number, headers?: Record<string, string>): void
  sse(headers?: Record<string, string>): SseWriter
  /** True once the client went away or the reply ended. */
  readonly closed: boolean
  onClose(callback: () => void): void
}

export function sseFrame(message: unknown): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`
}

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
}
