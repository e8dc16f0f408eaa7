/**
 * @module check-param-headers
 * Request-time enforcement of `Mcp-Param-*` mirrors (SEP-2243): for every mirror of the
 * tool's current table whose argument is in the body, the header must be there once, decode, and
 * denote the same value. Faults are plain data; the caller answers -32020 / HTTP 400.
 * Comparison follows the body value's JSON type, because the body is the source of truth and a
 * header carries no type of its own.
 */

import { decodeHeaderValue, encodeHeaderValue } from '../header-value.ts'
import type { HeaderView } from '../header-view.ts'
import { parseJsonInteger } from './json-integer.ts'
import type { MirrorEntry, MirrorTable } from './mirror-table.ts'
import { bounded, quoted } from './names.ts'

export type ParamHeaderFault = { message: string }

const SAFE_RANGE = '±(2^53−1)'

/** Request-time check. args = params.arguments (may be undefined). Returns undefined when all mirrors agree. */
export function checkParamHeaders(
  table: MirrorTable,
  args: unknown,
  headers: HeaderView,
): ParamHeaderFault | undefined {
  for (const entry of table) {
    const fault = checkEntry(entry, args, headers)
    if (fault !== undefined) return fault
  }
  return undefined
}

/**
 * How a conforming client renders a body value into its header: strings as-is or in the Base64
 * sentinel, safe integers in decimal, booleans as true/false. Undefined for values that cannot be
 * mirrored (null, objects, arrays, fractions, integers beyond ±(2^53−1)).
 */
export function mirrorHeaderValue(value: unknown): string | undefined {
  if (typeof value === 'string') return encodeHeaderValue(value)
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value)
  return undefined
}

/** The headers a conforming client sends for `args`, keyed by lowercase header name. */
export function mirrorHeaders(table: MirrorTable, args: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of table) {
    const rendered = mirrorHeaderValue(resolvePath(args, entry.path))
    if (rendered !== undefined) out[entry.header] = rendered
  }
  return out
}

/** The value at `path` in `args`; undefined when any step is missing or not a plain object. */
export function resolvePath(args: unknown, path: readonly string[]): unknown {
  let value = args
  for (const key of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
    // Own properties only: 'constructor' or '__proto__' must not resolve through the prototype.
    if (!Object.hasOwn(value, key)) return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}

function checkEntry(entry: MirrorEntry, args: unknown, headers: HeaderView): ParamHeaderFault | undefined {
  const body = resolvePath(args, entry.path)
  // Clients omit the header for null; a header sent anyway routes on nothing.
  if (body === undefined || body === null) return undefined
  const header = displayName(entry)
  const argument = quoted(entry.path.join('.'))
  const raw = headers.get(entry.header)
  if (raw === undefined) return fault(`Missing ${header} header for argument ${argument}.`)
  if (headers.isRepeated(entry.header)) return fault(`${header} header was sent more than once.`)
  const decoded = decodeHeaderValue(raw)
  if (!decoded.ok) return fault(`${header} header value ${decoded.reason}.`)
  return compare(body, decoded.value, { header, argument, raw })
}

interface Names {
  header: string
  argument: string
  raw: string
}

function compare(body: unknown, value: string, names: Names): ParamHeaderFault | undefined {
  if (typeof body === 'string') return body === value ? undefined : mismatch(names, quoted(body))
  if (typeof body === 'boolean') return String(body) === value ? undefined : mismatch(names, String(body))
  if (typeof body === 'number' && Number.isInteger(body)) return compareInteger(body, value, names)
  return fault(
    `Header mismatch: argument ${names.argument} holds ${describe(body)}, which ${names.header} cannot mirror.`,
  )
}

function compareInteger(body: number, value: string, names: Names): ParamHeaderFault | undefined {
  if (!Number.isSafeInteger(body))
    return fault(`Argument ${names.argument} is outside the mirrorable integer range ${SAFE_RANGE}.`)
  const parsed = parseJsonInteger(value)
  if (parsed.kind === 'out-of-range')
    return fault(
      `${names.header} header value ${quoted(names.raw)} is outside the integer range ${SAFE_RANGE}.`,
    )
  if (parsed.kind === 'integer' && parsed.value === BigInt(body)) return undefined
  return mismatch(names, String(body))
}

function mismatch(names: Names, shownBody: string): ParamHeaderFault {
  return fault(
    `Header mismatch: ${names.header} header value ${quoted(names.raw)} does not match body value ${shownBody} for argument ${names.argument}.`,
  )
}

function describe(body: unknown): string {
  if (Array.isArray(body)) return 'an array'
  if (typeof body === 'number') return `the non-integer number ${bounded(String(body))}`
  return typeof body === 'object' ? 'an object' : `a ${typeof body}`
}

function displayName(entry: MirrorEntry): string {
  return `Mcp-Param-${bounded(entry.suffix)}`
}

function fault(message: string): ParamHeaderFault {
  return { message }
}
