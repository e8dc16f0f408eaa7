/**
 * @module parse
 * Turns one wire text into an inbound message or a precise JSON-RPC fault. A body that is not
 * JSON is -32700 with the line and column where it broke (never "unsupported protocol version");
 * JSON that is not one JSON-RPC object is -32600, each with one short sentence.
 */

import { TesseraError, type TesseraErrorCode } from '../../errors.ts'
import { locateJsonError } from './locate-json-error.ts'
import type { InboundMessage, JsonRpcId } from './message.ts'

/** A fault keeps the request id when one could be read, so the error answers that request. */
export type ParseOutcome =
  | { ok: true; value: InboundMessage }
  | { ok: false; error: TesseraError; id?: JsonRpcId }

export interface ParseLimits {
  /** Deepest nesting of objects and arrays accepted (default 64). */
  maxDepth?: number
}

const DEFAULT_MAX_DEPTH = 64

export function parseMessage(text: string, limits?: ParseLimits): ParseOutcome {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    const at = locateJsonError(text)
    return fault('TESSERA_PARSE_ERROR', `Parse error: invalid JSON at line ${at.line}, column ${at.column}.`)
  }
  const maxDepth = limits?.maxDepth ?? DEFAULT_MAX_DEPTH
  if (mayBeDeeperThan(text, maxDepth) && exceedsDepth(value, maxDepth)) {
    return fault('TESSERA_INVALID_REQUEST', 'Invalid request: the message is nested too deeply.')
  }
  return readMessage(value)
}

/**
 * Longest string id accepted. Every answer echoes the id, so an unbounded one would make the
 * server copy whatever a client sent (a 900 KB id, say) into its answer and its logs.
 */
const MAX_ID_LENGTH = 256

/** Reads an already parsed JSON value as one JSON-RPC message. */
export function readMessage(value: unknown): ParseOutcome {
  if (Array.isArray(value))
    return fault('TESSERA_INVALID_REQUEST', 'Invalid request: batches are not supported.')
  if (typeof value !== 'object' || value === null) {
    return fault('TESSERA_INVALID_REQUEST', 'Invalid request: the message must be a JSON object.')
  }
  const msg = value as Record<string, unknown>
  const id = msg.id
  const validId =
    (typeof id === 'string' && id.length <= MAX_ID_LENGTH) ||
    (typeof id === 'number' && Number.isSafeInteger(id))
  const echoId = validId ? (id as JsonRpcId) : undefined
  if (msg.jsonrpc !== '2.0')
    return fault('TESSERA_INVALID_REQUEST', 'Invalid request: jsonrpc must be "2.0".', echoId)
  if (
    msg.params !== undefined &&
    (typeof msg.params !== 'object' || msg.params === null || Array.isArray(msg.params))
  ) {
    return fault('TESSERA_INVALID_REQUEST', 'Invalid request: params must be an object.', echoId)
  }
  if ('method' in msg) return readCall(msg, id, validId)
  if ('result' in msg || 'error' in msg) {
    if (!validId)
      return fault('TESSERA_INVALID_REQUEST', 'Invalid request: a response needs a string or integer id.')
    return { ok: true, value: { kind: 'response', message: msg as never } }
  }
  return fault('TESSERA_INVALID_REQUEST', 'Invalid request: no method.', echoId)
}

function readCall(msg: Record<string, unknown>, id: unknown, validId: boolean): ParseOutcome {
  if (typeof msg.method !== 'string' || msg.method === '') {
    return fault(
      'TESSERA_INVALID_REQUEST',
      'Invalid request: method must be a non-empty string.',
      validId ? (id as JsonRpcId) : undefined,
    )
  }
  if (id === undefined) return { ok: true, value: { kind: 'notification', message: msg as never } }
  if (!validId) {
    return fault(
      'TESSERA_INVALID_REQUEST',
      `Invalid request: id must be a string of at most ${MAX_ID_LENGTH} characters or an integer.`,
    )
  }
  return { ok: true, value: { kind: 'request', message: msg as never } }
}

function fault(code: TesseraErrorCode, message: string, id?: JsonRpcId): ParseOutcome {
  const error = new TesseraError(code, message)
  return id === undefined ? { ok: false, error } : { ok: false, error, id }
}

/**
 * Whether `text` has more opening brackets than `maxDepth`. Every level of nesting opens with one,
 * so a text with no more than that cannot nest deeper, and the walk over the parsed value (a keyed
 * read of every property) is left for the texts that might. Brackets inside strings count too,
 * which only sends a text to the walk.
 */
function mayBeDeeperThan(text: string, maxDepth: number): boolean {
  let opened = 0
  for (const bracket of BRACKETS) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++opened > maxDepth) return true
    }
  }
  return false
}

const BRACKETS = ['{', '['] as const

/**
 * Recursive, but it stops one level past the limit, so a hostile document cannot take it deeper
 * than `maxDepth + 1` frames; no allocation on the way.
 */
function exceedsDepth(node: unknown, maxDepth: number, depth = 1): boolean {
  if (typeof node !== 'object' || node === null) return false
  if (depth > maxDepth) return true
  if (Array.isArray(node)) {
    for (const child of node) if (exceedsDepth(child, maxDepth, depth + 1)) return true
    return false
  }
  for (const key in node) {
    if (exceedsDepth((node as Record<string, unknown>)[key], maxDepth, depth + 1)) return true
  }
  return false
}
