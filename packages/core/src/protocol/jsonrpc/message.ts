/**
 * @module message
 * JSON-RPC 2.0 message shapes as Tessera handles them: one object per HTTP body or stdio line,
 * never a batch. Ids are strings or integers, never null.
 */

/** The id of a JSON-RPC request, which its response repeats: a string or a number, never null. */
export type JsonRpcId = string | number
/** A JSON object whose values are not yet checked: `params`, `_meta`, a result's fields. */
export type JsonObject = Record<string, unknown>

/**
 * The result of a request as the server builds it: a JSON object, named by the fields the layers
 * read. A type literal, not an index signature, so the interfaces of the results
 * (`CallToolResult`, `GetPromptResult`, …), which have none, are results as they are; and like
 * every type literal of JSON values, a `ResultObject` goes wherever a `JsonObject` does.
 */
export type ResultObject = {
  _meta?: unknown
  resultType?: unknown
  isError?: unknown
  inputRequests?: unknown
  requestState?: unknown
}

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

/** The error of a failed response: its JSON-RPC code, a message, and what else the peer says. */
export interface JsonRpcErrorObject {
  code: number
  message: string
  data?: unknown
}

/** A type literal like `JsonRpcFailure`, so a response is a `JsonObject` (an event of a stream). */
export type JsonRpcSuccess = {
  jsonrpc: '2.0'
  id: JsonRpcId
  result: JsonObject
}

export type JsonRpcFailure = {
  jsonrpc: '2.0'
  id?: JsonRpcId
  error: JsonRpcErrorObject
}

/**
 * A response as a peer sends it: in the handshake era, the client's answer to a request of the
 * server, carrying a `result` or an `error`.
 */
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
