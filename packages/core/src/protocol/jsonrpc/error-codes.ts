/**
 * @module error-codes
 * The JSON-RPC error codes of both MCP revisions. Codes -32020…-32022 are defined by 2026-07-28;
 * -32002 and -32042 exist only in 2025-11-25.
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  LegacyResourceNotFound: -32002,
} as const
