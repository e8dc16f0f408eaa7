/**
 * @module mirror-table
 * Registration-time walk of a tool's `inputSchema` into the table of `x-mcp-header` mirrors
 * (SEP-2243). The walk runs on a JSON round-trip copy, the schema exactly as `tools/list` will
 * advertise it, so what is validated, advertised and enforced cannot diverge, and one subschema
 * object aliased into two positions is judged in both.
 * Any annotation the walk cannot place on a pure `properties` chain is refused, never ignored:
 * an ignored annotation would be advertised to clients but never enforced.
 */

import { bounded, quoted as name, pointer } from './names.ts'
import { dialectOf, type SchemaDialect } from './schema-dialect.ts'

export type MirroredType = 'string' | 'integer' | 'boolean'

export interface MirrorEntry {
  /** Property names from the arguments object down to the mirrored value. */
  readonly path: readonly string[]
  /** The annotation value as written (`Mcp-Param-<suffix>` on the wire). */
  readonly suffix: string
  /** Lowercase header name: `mcp-param-` + suffix.toLowerCase(). */
  readonly header: string
  readonly type: MirroredType
}

export type MirrorTable = readonly MirrorEntry[]

export const ANNOTATION = 'x-mcp-header'
const QUOTED_ANNOTATION = `"${ANNOTATION}"`
const NO_MIRRORS: MirrorTable = Object.freeze([])
const HEADER_PREFIX = 'mcp-param-'
// RFC 9110 token; without the m flag `$` matches only at the very end, so 'Route\n' fails.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
// Pointers get more room than names: their informative part is the tail.
const MAX_POINTER = 240
const MIRRORED_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean'])

type JsonObject = { [key: string]: unknown }

interface Visit {
  node: unknown
  /** Keys from the schema root, for messages. */
  at: readonly string[]
  /** Argument path when reached through `properties` steps only; null once any other step was taken. */
  path: readonly string[] | null
}

/** An accepted annotation, remembered to name it when a later suffix clashes with it. */
interface Placed {
  suffix: string
  at: readonly string[]
}

/**
 * Walks a tool's inputSchema (a JSON object, as it will be advertised in tools/list) and returns
 * the mirror table. Throws TypeError naming the tool and the JSON-pointer path of the offending
 * annotation on any violation. Pure and deterministic: the same schema always yields the same table.
 */
export function buildMirrorTable(toolName: string, inputSchema: Record<string, unknown>): MirrorTable {
  const text = serialized(toolName, inputSchema)
  // The annotation is a key, written `"x-mcp-header"` in any JSON text that holds it (JSON escapes
  // none of its characters): a schema whose text lacks that has no mirror, and is not walked.
  if (!text.includes(QUOTED_ANNOTATION)) return NO_MIRRORS
  const root: unknown = JSON.parse(text)
  const dialect = dialectOf(isObject(root) ? root['$schema'] : undefined)
  const entries: MirrorEntry[] = []
  const placed = new Map<string, Placed>()
  const stack: Visit[] = [{ node: root, at: [], path: [] }]
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    if (!isObject(visit.node)) continue
    if (Object.hasOwn(visit.node, ANNOTATION)) {
      const entry = readAnnotation(toolName, visit, placed)
      placed.set(entry.header, { suffix: entry.suffix, at: visit.at })
      entries.push(entry)
    }
    // Reversed so the table follows document order.
    stack.push(...children(visit, dialect).reverse())
  }
  return Object.freeze(entries)
}

/** The schema's JSON text: the schema as `tools/list` advertises it. */
function serialized(toolName: string, inputSchema: Record<string, unknown>): string {
  let text: string | undefined
  try {
    text = JSON.stringify(inputSchema) as string | undefined
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new TypeError(
      `Tool ${name(toolName)}: inputSchema is not serializable as JSON (${bounded(reason)}).`,
    )
  }
  if (text === undefined)
    throw new TypeError(
      `Tool ${name(toolName)}: inputSchema is not serializable as JSON (it has no JSON text).`,
    )
  return text
}

function children(visit: Visit, dialect: SchemaDialect): Visit[] {
  const node = visit.node as JsonObject
  const out: Visit[] = []
  for (const [keyword, value] of Object.entries(node)) {
    const at = [...visit.at, keyword]
    if (keyword === 'properties') out.push(...entriesOf(value, at, visit.path))
    else if (dialect.map.has(keyword)) out.push(...entriesOf(value, at, null))
    else if (dialect.list.has(keyword) || (dialect.single.has(keyword) && Array.isArray(value)))
      out.push(...itemsOf(value, at))
    else if (dialect.single.has(keyword)) out.push({ node: value, at, path: null })
    // Any other keyword holds data: never walked.
  }
  return out
}

/** Subschemas of a name→schema map; `path` continues only for `properties`. */
function entriesOf(value: unknown, at: readonly string[], path: readonly string[] | null): Visit[] {
  if (!isObject(value)) return []
  return Object.entries(value).map(([key, node]) => ({
    node,
    at: [...at, key],
    path: path === null ? null : [...path, key],
  }))
}

function itemsOf(value: unknown, at: readonly string[]): Visit[] {
  if (!Array.isArray(value)) return []
  return value.map((node, index) => ({ node, at: [...at, String(index)], path: null }))
}

function readAnnotation(toolName: string, visit: Visit, placed: ReadonlyMap<string, Placed>): MirrorEntry {
  const node = visit.node as JsonObject
  const suffix = node[ANNOTATION]
  const fail = (problem: string) =>
    new TypeError(`Tool ${name(toolName)}: ${ANNOTATION} at ${where(visit.at)} ${problem}.`)
  if (visit.path === null)
    throw fail(
      'is not statically reachable (only a chain of "properties" steps from the root may be mirrored)',
    )
  if (visit.path.length === 0) throw fail('is on the schema root; annotate a property instead')
  if (typeof suffix !== 'string') throw fail(`must be a string, got ${jsonType(suffix)}`)
  if (!TOKEN.test(suffix))
    throw fail(`value ${name(suffix)} is not a non-empty HTTP token (RFC 9110 tchar only)`)
  const header = HEADER_PREFIX + suffix.toLowerCase()
  const clash = placed.get(header)
  if (clash !== undefined)
    throw fail(
      `value ${name(suffix)} duplicates ${name(clash.suffix)} at ${where(clash.at)} (header names ignore case)`,
    )
  const type = node['type']
  if (!MIRRORED_TYPES.has(type))
    throw fail(
      `is on a property whose "type" is ${describeType(type)}; only "string", "integer" or "boolean" may be mirrored`,
    )
  return Object.freeze({ path: Object.freeze([...visit.path]), suffix, header, type: type as MirroredType })
}

function where(at: readonly string[]): string {
  return bounded(pointer(at) || '/', MAX_POINTER)
}

function describeType(type: unknown): string {
  if (type === undefined) return 'missing'
  return typeof type === 'string'
    ? `"${bounded(type)}"`
    : `${jsonType(type)} ${bounded(JSON.stringify(type))}`
}

function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
