/**
 * @module errors
 * Protocol faults: one `TesseraError` class carrying a typed code, and the single table that maps
 * each code to its JSON-RPC code and HTTP status. Local misuse (bad options) throws TypeError or
 * RangeError at construction instead, so the two families never mix.
 */

export type TesseraErrorCode =
  | 'TESSERA_PARSE_ERROR'
  | 'TESSERA_INVALID_REQUEST'
  | 'TESSERA_METHOD_NOT_FOUND'
  | 'TESSERA_INVALID_PARAMS'
  | 'TESSERA_INVALID_ENVELOPE'
  | 'TESSERA_INVALID_STATE'
  | 'TESSERA_RESOURCE_NOT_FOUND'
  | 'TESSERA_INTERNAL'
  | 'TESSERA_HEADER_MISMATCH'
  | 'TESSERA_MISSING_CAPABILITY'
  | 'TESSERA_UNSUPPORTED_VERSION'
  | 'TESSERA_SESSION_REQUIRED'
  | 'TESSERA_SESSION_NOT_FOUND'
  | 'TESSERA_STORE_UNAVAILABLE'

export interface WireMapping {
  /** JSON-RPC error code. */
  readonly jsonrpc: number
  /** HTTP status when the fault is answered over Streamable HTTP. */
  readonly http: number
}

/**
 * Ordinary JSON-RPC failures stay on HTTP 200: a dual-era client reads a 4xx whose body is not a
 * recognised modern error as "legacy server" and falls back to `initialize`.
 */
export const wireMappings: Readonly<Record<TesseraErrorCode, WireMapping>> = {
  TESSERA_PARSE_ERROR: { jsonrpc: -32700, http: 400 },
  TESSERA_INVALID_REQUEST: { jsonrpc: -32600, http: 400 },
  TESSERA_METHOD_NOT_FOUND: { jsonrpc: -32601, http: 404 },
  TESSERA_INVALID_PARAMS: { jsonrpc: -32602, http: 200 },
  TESSERA_INVALID_ENVELOPE: { jsonrpc: -32602, http: 400 },
  TESSERA_INVALID_STATE: { jsonrpc: -32602, http: 400 },
  TESSERA_RESOURCE_NOT_FOUND: { jsonrpc: -32602, http: 200 },
  TESSERA_INTERNAL: { jsonrpc: -32603, http: 200 },
  TESSERA_HEADER_MISMATCH: { jsonrpc: -32020, http: 400 },
  TESSERA_MISSING_CAPABILITY: { jsonrpc: -32021, http: 400 },
  TESSERA_UNSUPPORTED_VERSION: { jsonrpc: -32022, http: 400 },
  TESSERA_SESSION_REQUIRED: { jsonrpc: -32600, http: 400 },
  TESSERA_SESSION_NOT_FOUND: { jsonrpc: -32600, http: 404 },
  TESSERA_STORE_UNAVAILABLE: { jsonrpc: -32603, http: 503 },
}

export class TesseraError extends Error {
  override readonly name = 'TesseraError'
  readonly code: TesseraErrorCode
  readonly data: unknown

  constructor(code: TesseraErrorCode, message: string, data?: unknown) {
    super(message)
    this.code = code
    this.data = data
  }

  get jsonrpcCode(): number {
    return wireMappings[this.code].jsonrpc
  }

  get httpStatus(): number {
    return wireMappings[this.code].http
  }
}

export function isTesseraError(value: unknown): value is TesseraError {
  return value instanceof TesseraError
}
