/**
 * @module message
 * JSON-RPC 2.0 message shapes as Tessera handles them: one object per HTTP body or stdio line,
 * never a batch. Ids are strings or integers, never null.
 */

export type JsonRpcId = string | number
export type JsonObject = Record<string, unknown>

export interface JsonRpcRequest {
  readonly jsonrpc: '2.0'
  readonly id: JsonRpcId
  readonly method: string
  readonly params?: JsonObject
}

export interface JsonRpcNotification {
  readonly jsonrpc: '2.0'
  readonly method: string
  readonly params?: JsonObject
}

export interface JsonRpcErrorObject {
  code: number
  message: string
  data?: unknown
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0'
  id: JsonRpcId
  result: JsonObject
}

export interface JsonRpcFailure {
  jsonrpc: '2.0'
  id?: JsonRpcId
  error: JsonRpcErrorObject
}

export interface JsonRpcResponseIn {
  readonly jsonrpc: '2.0'
  readonly id: JsonRpcId
  readonly result?: JsonObject
  readonly error?: JsonRpcErrorObject
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure

/** What a peer may send us: a request, a notification, or (handshake era only) a response. */
export type InboundMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponseIn }

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
