/**
 * @module json-rpc
 * The JSON-RPC shapes the client reads and writes, and the error a server answered with.
 */

export type JsonObject = { [key: string]: unknown }
export type RpcId = string | number

/** A request this client sends; an object type (not an interface), so it is a JsonObject as well. */
export type RpcRequest = {
  jsonrpc: '2.0'
  id: RpcId
  method: string
  params?: JsonObject
}

/** A JSON-RPC error the server answered with. */
export class RpcError extends Error {
  override readonly name = 'RpcError'
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

/**
 * Why no answer came: nothing could be reached; the stream or the process ended before the
 * answer; the server refused the caller (401/403); or what came was not the answer expected.
 */
export type TransportFailure = 'unreachable' | 'closed' | 'denied' | 'protocol'

export interface TransportErrorOptions {
  /** Default `protocol`. */
  reason?: TransportFailure
  cause?: unknown
  /** What the one-line message leaves out (a response body, a child's stderr), shown with `--verbose`. */
  detail?: string
}

/** The conversation itself failed; the message is one line that says what to do. */
export class TransportError extends Error {
  override readonly name = 'TransportError'
  readonly reason: TransportFailure
  readonly detail: string | undefined

  constructor(message: string, options: TransportErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.reason = options.reason ?? 'protocol'
    this.detail = options.detail
  }
}

let next = 1
export const freshId = (): string => `tessera-cli-${next++}`

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A message is a response when it has an id and no method. */
export const isResponse = (message: JsonObject): boolean =>
  message.id !== undefined && message.method === undefined

/** The result of a response, or its error thrown as an RpcError. */
export function resultOf(response: JsonObject): JsonObject {
  if (isObject(response.error)) {
    const { code, message, data } = response.error as { code?: unknown; message?: unknown; data?: unknown }
    throw new RpcError(typeof code === 'number' ? code : 0, String(message ?? 'error'), data)
  }
  if (!isObject(response.result))
    throw new TransportError('The server answered without a result or an error.')
  return response.result
}
