/**
 * @module reply
 * What the server hands back to a transport for one inbound message: a JSON-RPC response with the
 * HTTP status it deserves, a long-lived stream (`subscriptions/listen`), or nothing (a
 * notification). Every error reply is built here, from the error table.
 */
import { handshakeJsonrpcCode, SuccessStatus, TesseraError } from './errors.ts'
import type {
  JsonObject,
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcResponse,
} from './protocol/jsonrpc/message.ts'

export interface StreamSink {
  /** Sends one JSON-RPC message on the stream. */
  send(message: JsonObject): void
  /** Ends the stream, optionally after a final message. */
  end(final?: JsonObject): void
  /** Registers a callback for when the client goes away. */
  onClose(callback: () => void): void
}

export type ResponseReply = {
  kind: 'response'
  status: number
  body: JsonRpcResponse
  /** The body already serialized, when the pipeline could do it cheaper than a generic stringify. */
  encoded?: string
  /** Every scope a refused call needs: an HTTP face adds its authenticator's challenge. */
  requiredScopes?: readonly string[]
  /** A request over a rate limit: an HTTP face says when to retry (`Retry-After`, in seconds). */
  retryAfterSeconds?: number
}

export type Reply =
  | ResponseReply
  | { kind: 'stream'; status: number; open(sink: StreamSink): void }
  | { kind: 'accepted' }

export function success(id: JsonRpcId, result: JsonObject): ResponseReply {
  return { kind: 'response', status: SuccessStatus.ok, body: { jsonrpc: '2.0', id, result } }
}

/** The wire text of a reply. */
export function encodeReply(reply: ResponseReply): string {
  return reply.encoded ?? JSON.stringify(reply.body)
}

/**
 * The error reply for `error`. A refusal outside any session carries its table status; an
 * error inside a 2025-11-25 session (`inSession`) is an ordinary JSON-RPC answer on 200, with
 * that revision's code.
 */
export function failure(
  id: JsonRpcId | undefined,
  error: TesseraError,
  options?: { inSession?: boolean },
): ResponseReply {
  const inSession = options?.inSession === true
  const object: JsonRpcErrorObject = {
    code: inSession ? handshakeJsonrpcCode(error.code) : error.jsonrpcCode,
    message: error.message,
  }
  if (error.data !== undefined) object.data = error.data
  const body: JsonRpcResponse =
    id === undefined ? { jsonrpc: '2.0', error: object } : { jsonrpc: '2.0', id, error: object }
  // A missing scope keeps its 403 in a session too: clients of both eras step up on it.
  const requiredScopes = requiredScopesOf(error)
  if (requiredScopes !== undefined)
    return { kind: 'response', status: error.httpStatus, body, requiredScopes }
  // And a rate limit its 429, with when to come back.
  const retryAfterMs = (error.data as { retryAfterMs?: unknown } | undefined)?.retryAfterMs
  if (error.code === 'TESSERA_RATE_LIMITED' && typeof retryAfterMs === 'number')
    return {
      kind: 'response',
      status: error.httpStatus,
      body,
      retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
    }
  return { kind: 'response', status: inSession ? SuccessStatus.ok : error.httpStatus, body }
}

/** The scopes a refusal for missing scopes names in its data (every one the call needs). */
function requiredScopesOf(error: TesseraError): readonly string[] | undefined {
  if (error.code !== 'TESSERA_INSUFFICIENT_SCOPE') return undefined
  const scopes = (error.data as { requiredScopes?: unknown } | undefined)?.requiredScopes
  return Array.isArray(scopes) ? (scopes as string[]) : undefined
}

/** Anything that is not a TesseraError is an internal failure: logged, never shown. */
export function toTesseraError(error: unknown, log: (error: unknown) => void): TesseraError {
  if (error instanceof TesseraError) {
    // A lost lease means an action may have run twice: the operator must hear of it.
    if (error.code === 'TESSERA_LEASE_LOST') log(error)
    return error
  }
  log(error)
  return new TesseraError('TESSERA_INTERNAL', 'Internal error.')
}
