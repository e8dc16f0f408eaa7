/**
 * @module request-meta
 * The `_meta` every 2026-07-28 request carries: version and client capabilities are required on
 * every request (missing or mistyped → -32602, HTTP 400), `logLevel` and `progressToken` opt in to
 * notifications for this request only.
 *
 * `clientInfo` is optional, but when present it is checked like the rest: the client chooses every
 * byte of it and it proves nothing, yet handlers record it (audit trails, task records, log lines)
 * and show it to people and models. So only the declared fields are kept (`name`, `version`,
 * `title`), each a string of at most 256 characters without a control character or line break;
 * anything else is refused with -32602 naming the field, so a name that would start a new line of
 * a log, or one of 600 KB, never reaches a handler. The `initialize` of 2025-11-25 uses the same
 * check (`readClientInfo`).
 */
import { TesseraError } from '../../errors.ts'
import type { JsonObject } from '../jsonrpc/message.ts'
import { LINE_BREAKING } from '../line-breaking.ts'
import type { ClientCapabilities } from './capabilities.ts'
import { isLoggingLevel, type LoggingLevel, MetaKey } from './vocabulary.ts'

/**
 * An MCP implementation's description of itself: the server's own `serverInfo`, or the
 * `clientInfo` a client sent, of which only `name`, `version` and `title` are kept.
 */
export interface Implementation {
  name: string
  version: string
  title?: string
  description?: string
  websiteUrl?: string
}

/** The longest `name`, `version` or `title` a client may give itself, in UTF-16 code units. */
export const CLIENT_INFO_MAX_LENGTH = 256

/** Why a clientInfo was refused: the field at fault (none: the value itself) and what is wrong. */
export type ClientInfoRead =
  | { ok: true; info: Implementation | undefined }
  | { ok: false; field: 'name' | 'version' | 'title' | undefined; problem: string }

/**
 * Checks a client's self-description and keeps its declared fields. `undefined` (not sent) is no
 * clientInfo; anything else must be an object with string `name` and `version` (the schema
 * requires both) and an optional string `title`. `description`, `icons`, `websiteUrl` and other
 * keys are dropped unread: nothing in the server uses them, and keeping them would keep whatever
 * size the client chose.
 */
export function readClientInfo(value: unknown): ClientInfoRead {
  if (value === undefined) return { ok: true, info: undefined }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, field: undefined, problem: 'must be an object' }
  }
  const sent = value as JsonObject
  const name = checkText(sent.name)
  if (name !== undefined) return { ok: false, field: 'name', problem: name }
  const version = checkText(sent.version)
  if (version !== undefined) return { ok: false, field: 'version', problem: version }
  const info: Implementation = { name: sent.name as string, version: sent.version as string }
  if (sent.title !== undefined) {
    const title = checkText(sent.title)
    if (title !== undefined) return { ok: false, field: 'title', problem: title }
    info.title = sent.title as string
  }
  return { ok: true, info }
}

/** What is wrong with one text field of a clientInfo, or undefined when nothing is. */
function checkText(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string'
  if (value.length > CLIENT_INFO_MAX_LENGTH) return `is longer than ${CLIENT_INFO_MAX_LENGTH} characters`
  if (LINE_BREAKING.test(value)) return 'contains a control character'
  return undefined
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
  const info = readClientInfo(m[MetaKey.clientInfo])
  if (!info.ok) {
    const field = info.field === undefined ? '' : `.${info.field}`
    return refuse(`Invalid params: _meta["${MetaKey.clientInfo}"]${field} ${info.problem}.`)
  }
  return {
    ok: true,
    meta: {
      protocolVersion: version,
      clientCapabilities: caps as ClientCapabilities,
      clientInfo: info.info,
      logLevel: logLevel as LoggingLevel | undefined,
      progressToken: token as string | number | undefined,
    },
  }
}

function refuse(message: string): RequestMetaOutcome {
  return { ok: false, error: new TesseraError('TESSERA_INVALID_ENVELOPE', message) }
}
