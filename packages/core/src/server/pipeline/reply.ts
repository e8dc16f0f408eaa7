/**
 * @module reply
 * What the server hands back to a transport for one inbound message: a JSON-RPC response with the
 * HTTP status it deserves, a long-lived stream (`subscriptions/listen`), or nothing (notifications).
 */
import { isTesseraError, TesseraError } from '../../errors.ts'
import type { JsonObject, JsonRpcId, JsonRpcResponse } from '../../protocol/jsonrpc/message.ts'

export interface StreamSink {
  /** Sends one JSON-RPC message on the stream. */
  send(message: JsonObject): void
  /** Ends the stream, optionally after a final message. */
  end(final?: JsonObject): void
  /** Registers a callback for when the client goes away. */
  onClose(callback: () => void): void
}

export type Reply =
  | {
      kind: 'response'
      status: number
      body: JsonRpcResponse
      /** The body already serialized, when the pipeline could do it cheaper than a generic stringify. */
      encoded?: string
    }
  | { kind: 'stream'; status: number; open(sink: StreamSink): void }
  | { kind: 'accepted' }

export function success(id: JsonRpcId, result: JsonObject): Reply {
  return { kind: 'response', status: 200, body: { jsonrpc: '2.0', id, result } }
}

/** The wire text of a reply. */
export function encodeReply(reply: Extract<Reply, { kind: 'response' }>): string {
  return reply.encoded ?? JSON.stringify(reply.body)
}

export function failure(id: JsonRpcId | undefined, error: TesseraError): Reply {
  const body: JsonRpcResponse =
    id === undefined
      ? { jsonrpc: '2.0', error: errorObject(error) }
      : { jsonrpc: '2.0', id, error: errorObject(error) }
  return { kind: 'response', status: error.httpStatus, body }
}

function errorObject(error: TesseraError): { code: number; message: string; data?: unknown } {
  return error.data === undefined
    ? { code: error.jsonrpcCode, message: error.message }
    : { code: error.jsonrpcCode, message: error.message, data: error.data }
}

/** Anything that is not a TesseraError is an internal failure: logged, never shown. */
export function toTesseraError(error: unknown, log: (error: unknown) => void): TesseraError {
  if (isTesseraError(error)) return error
  const code = error instanceof Error ? (error as { code?: string }).code : undefined
  if (code === 'TESSERA_STORE_UNAVAILABLE') {
    return new TesseraError(
      'TESSERA_STORE_UNAVAILABLE',
      'The single-use store is unavailable; nothing was done. Retry later.',
    )
  }
  if (code === 'TESSERA_LEASE_LOST') {
    log(error)
    return new TesseraError(
      'TESSERA_INTERNAL',
      'Internal error: the single-use lease was lost while the action ran; check its outcome before retrying.',
    )
  }
  log(error)
  return new TesseraError('TESSERA_INTERNAL', 'Internal error.')
}
