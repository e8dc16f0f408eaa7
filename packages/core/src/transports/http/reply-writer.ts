/**
 * @module reply-writer
 * The small surface both HTTP faces implement to answer one request: a whole JSON body, an empty
 * status, or an SSE stream; and the one function that writes an error reply, so every error a
 * transport sends is built from the error table.
 */
import { TesseraError, type TesseraErrorCode } from '../../errors.ts'
import type { JsonRpcId } from '../../protocol/jsonrpc/message.ts'
import { encodeReply, failure, type ResponseReply } from '../../reply.ts'

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

/** Writes a whole JSON-RPC reply with its status. */
export function writeReply(
  writer: ReplyWriter,
  reply: ResponseReply,
  headers?: Record<string, string>,
): void {
  writer.json(reply.status, encodeReply(reply), headers)
}

/** Writes the error reply of `code`: its JSON-RPC code and HTTP status come from the table. */
export function writeFault(
  writer: ReplyWriter,
  code: TesseraErrorCode,
  message: string,
  options?: { id?: JsonRpcId; data?: unknown; headers?: Record<string, string> },
): void {
  writeReply(writer, failure(options?.id, new TesseraError(code, message, options?.data)), options?.headers)
}

export function sseFrame(message: unknown): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`
}

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
}
