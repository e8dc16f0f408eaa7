/**
 * @module request-meta
 * The `_meta` every 2026-07-28 request carries: version and client capabilities are required on
 * every request (missing or mistyped → -32602, HTTP 400), `logLevel` and `progressToken` opt in to
 * notifications for this request only.
 */
import { TesseraError } from '../../errors.ts'
import type { JsonObject } from '../jsonrpc/message.ts'
import type { ClientCapabilities } from './capabilities.ts'
import { isLoggingLevel, type LoggingLevel, MetaKey } from './vocabulary.ts'

export interface Implementation {
  name: string
  version: string
  title?: string
  [key: string]: unknown
}

export interface RequestMeta {
  protocolVersion: string
  clientCapabilities: ClientCapabilities
  clientInfo: Implementation | undefined
  logLevel: LoggingLevel | undefined
  progressToken: string | number | undefined
}

export type RequestMetaOutcome = { ok: true; meta: RequestMeta } | { ok: false; error: TesseraError }

export function hasModernClaim(params: JsonObject | undefined): boolean {
  const meta = params?._meta
  return typeof meta === 'object' && meta !== null && MetaKey.protocolVersion in meta
}

export function readRequestMeta(params: JsonObject | undefined): RequestMetaOutcome {
  const meta = params?._meta
  if (params === undefined) return refuse('Invalid params: params with _meta is required.')
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
    return refuse('Invalid params: _meta is required.')
  }
  const m = meta as JsonObject
  const version = m[MetaKey.protocolVersion]
  if (typeof version !== 'string' || version === '') {
    return refuse(`Invalid params: _meta["${MetaKey.protocolVersion}"] must be a string.`)
  }
  const caps = m[MetaKey.clientCapabilities]
  if (typeof caps !== 'object' || caps === null || Array.isArray(caps)) {
    return refuse(`Invalid params: _meta["${MetaKey.clientCapabilities}"] must be an object.`)
  }
  const logLevel = m[MetaKey.logLevel]
  if (logLevel !== undefined && !isLoggingLevel(logLevel)) {
    return {
      ok: false,
      error: new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: unknown logLevel.'),
    }
  }
  const token = m.progressToken
  if (
    token !== undefined &&
    typeof token !== 'string' &&
    !(typeof token === 'number' && Number.isInteger(token))
  ) {
    return refuse('Invalid params: progressToken must be a string or an integer.')
  }
  const info = m[MetaKey.clientInfo]
  return {
    ok: true,
    meta: {
      protocolVersion: version,
      clientCapabilities: caps as ClientCapabilities,
      clientInfo: typeof info === 'object' && info !== null ? (info as Implementation) : undefined,
      logLevel: logLevel as LoggingLevel | undefined,
      progressToken: token as string | number | undefined,
    },
  }
}

function refuse(message: string): RequestMetaOutcome {
  return { ok: false, error: new TesseraError('TESSERA_INVALID_ENVELOPE', message) }
}
