/**
 * @module errors
 * Every fault Tessera puts on the wire, in one table: a typed code mapped once to its JSON-RPC
 * code and HTTP status. Every error class extends `TesseraError`; transports and the server build
 * every error reply from this table, HTTP refusals before any JSON-RPC included. Local misuse
 * (bad options, a bad registration) throws TypeError or RangeError instead, so the two families
 * never mix. This module imports nothing: every layer may use it.
 */

/**
 * The numbers one error code is sent with: its JSON-RPC code, the code a 2025-11-25 session uses
 * where that revision differs, and the HTTP status of a 2026-07-28 reply.
 */
export interface WireMapping {
  /** JSON-RPC error code. */
  readonly jsonrpc: number
  /** The code in a 2025-11-25 session, where that revision differs. */
  readonly handshake?: number
  /** HTTP status of a 2026-07-28 reply (a 2025-11-25 session answers JSON-RPC errors with 200). */
  readonly http: number
}

/**
 * Ordinary JSON-RPC failures stay on HTTP 200: a dual-era client reads a 4xx whose body is not a
 * recognised 2026-07-28 error as "this server predates 2026-07-28" and falls back to `initialize`.
 */
export const wireMappings = {
  TESSERA_PARSE_ERROR: { jsonrpc: -32700, http: 400 },
  TESSERA_INVALID_REQUEST: { jsonrpc: -32600, http: 400 },
  TESSERA_METHOD_NOT_FOUND: { jsonrpc: -32601, http: 404 },
  TESSERA_INVALID_PARAMS: { jsonrpc: -32602, http: 200 },
  TESSERA_INVALID_ENVELOPE: { jsonrpc: -32602, http: 400 },
  TESSERA_INVALID_STATE: { jsonrpc: -32602, http: 400 },
  TESSERA_RESOURCE_NOT_FOUND: { jsonrpc: -32602, handshake: -32002, http: 200 },
  TESSERA_INTERNAL: { jsonrpc: -32603, http: 200 },
  TESSERA_HEADER_MISMATCH: { jsonrpc: -32020, http: 400 },
  TESSERA_MISSING_CAPABILITY: { jsonrpc: -32021, handshake: -32602, http: 400 },
  TESSERA_UNSUPPORTED_VERSION: { jsonrpc: -32022, http: 400 },
  TESSERA_LEASE_LOST: { jsonrpc: -32603, http: 200 },
  TESSERA_DEADLINE_EXCEEDED: { jsonrpc: -32603, http: 200 },
  TESSERA_STORE_UNAVAILABLE: { jsonrpc: -32603, http: 503 },
  TESSERA_CLIENT_REQUEST_FAILED: { jsonrpc: -32603, http: 200 },
  TESSERA_SESSION_REQUIRED: { jsonrpc: -32600, http: 400 },
  TESSERA_SESSION_NOT_FOUND: { jsonrpc: -32600, http: 404 },
  TESSERA_TOO_MANY_SESSIONS: { jsonrpc: -32603, http: 503 },
  TESSERA_TOO_MANY_TASKS: { jsonrpc: -32600, http: 429 },
  TESSERA_RATE_LIMITED: { jsonrpc: -32600, http: 429 },
  TESSERA_UNAVAILABLE: { jsonrpc: -32603, http: 503 },
  TESSERA_NOT_FOUND: { jsonrpc: -32600, http: 404 },
  TESSERA_UNAUTHORIZED: { jsonrpc: -32600, http: 401 },
  TESSERA_FORBIDDEN: { jsonrpc: -32600, http: 403 },
  TESSERA_INSUFFICIENT_SCOPE: { jsonrpc: -32600, http: 403 },
  TESSERA_METHOD_NOT_ALLOWED: { jsonrpc: -32600, http: 405 },
  TESSERA_NOT_ACCEPTABLE: { jsonrpc: -32600, http: 406 },
  TESSERA_REQUEST_TIMEOUT: { jsonrpc: -32600, http: 408 },
  TESSERA_PAYLOAD_TOO_LARGE: { jsonrpc: -32600, http: 413 },
  TESSERA_UNSUPPORTED_MEDIA_TYPE: { jsonrpc: -32600, http: 415 },
  TESSERA_HEADERS_TOO_LARGE: { jsonrpc: -32600, http: 431 },
  TESSERA_TRANSPORT_FAILED: { jsonrpc: -32603, http: 500 },
} as const satisfies Record<string, WireMapping>

/**
 * Every code a `TesseraError` can carry, each with its row in `wireMappings`. A union of strings,
 * so a `switch` over `error.code` is checked by the compiler.
 */
export type TesseraErrorCode = keyof typeof wireMappings

/** The HTTP statuses of answers that are not errors. */
export const SuccessStatus = { ok: 200, accepted: 202 } as const

/**
 * The HTTP statuses of a WebSocket upgrade, for a bus that carries events over WebSockets: the
 * upgrade accepted, or a plain request where only an upgrade is served.
 */
export const UpgradeStatus = { switchingProtocols: 101, upgradeRequired: 426 } as const

/** The HTTP statuses of the health probes: the process answers, or cannot serve yet. */
export const ProbeStatus = { up: 200, unready: 503 } as const

/**
 * A protocol fault: the error every layer throws when a request must fail on the wire. Its `code`
 * decides the JSON-RPC code and HTTP status the client gets, from `wireMappings`; every error class
 * of Tessera extends it. Thrown from a handler, it answers with that fault instead of a generic
 * internal error.
 *
 * @example
 * ```ts
 * import { createServer, TesseraError } from '@tessera/core'
 * import { z } from 'zod'
 *
 * const owners = new Map([['checkout', 'payments team']])
 * createServer({ name: 'ops', version: '1.0.0' }).prompt(
 *   'escalate',
 *   { description: 'Escalate an incident', args: z.object({ service: z.string() }) },
 *   ({ service }) => {
 *     const owner = owners.get(service)
 *     if (owner === undefined) throw new TesseraError('TESSERA_INVALID_PARAMS', 'Unknown service.')
 *     return { messages: [{ role: 'user', content: { type: 'text', text: `Page the ${owner}.` } }] }
 *   },
 * )
 * ```
 */
export class TesseraError extends Error {
  override readonly name: string = 'TesseraError'
  /** Which fault this is; it selects the numbers the client gets. */
  readonly code: TesseraErrorCode
  /** Sent as the JSON-RPC error's `data` when defined, so the client can read it: nothing secret. */
  readonly data: unknown

  /** `message` goes on the wire as it is: never put a secret or an internal detail in it. */
  constructor(code: TesseraErrorCode, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
    this.data = data
  }

  /** The JSON-RPC error code of `code` (in a 2025-11-25 session it may differ: see `wireMappings`). */
  get jsonrpcCode(): number {
    return wireMappings[this.code].jsonrpc
  }

  /** The HTTP status a 2026-07-28 reply with this fault is sent with. */
  get httpStatus(): number {
    return wireMappings[this.code].http
  }
}

/** The JSON-RPC code of `code` in a 2025-11-25 session. */
export function handshakeJsonrpcCode(code: TesseraErrorCode): number {
  const mapping: WireMapping = wireMappings[code]
  return mapping.handshake ?? mapping.jsonrpc
}
