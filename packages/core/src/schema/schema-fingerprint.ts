/**
 * @module schema-fingerprint
 * A string that two zod v4 schemas built alike share, and schemas that would describe themselves
 * differently as JSON Schema do not: every node's definition (its type, fields, checks, entries,
 * defaults) and the metadata the global registry holds for it (a description, a title). It lets
 * the JSON Schema of a schema built anew on every call (`elicitForm({ schema: z.object({…}) })`
 * inside a handler) be converted once, not on every call.
 *
 * What a fingerprint cannot see, it refuses to fingerprint (undefined): a function that may shape
 * the schema (a refinement, a transform, a lazy getter), an object of a class it does not know, or
 * a nesting deeper than a form has. Two kinds of function are let through: an `error` message
 * maker, passed over (it words a refusal, never what is accepted), and a check's `when` guard,
 * printed by its identity (zod's own guards are shared functions; a guard of the application's,
 * made anew each time, gives each schema a fingerprint of its own).
 */
import { z } from 'zod'

const MAX_DEPTH = 12
/** A number for each `when` guard met, by identity. */
const guards = new WeakMap<object, number>()
let nextGuard = 0

/** The fingerprint of `schema`, or undefined when it holds something a fingerprint cannot see. */
export function schemaFingerprint(schema: z.ZodType): string | undefined {
  return print(schema, 0)
}

function print(value: unknown, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return undefined
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value)
    case 'number':
    case 'boolean':
      return String(value)
    case 'bigint':
      return `${value}n`
    case 'undefined':
      return 'u'
    case 'object':
      return value === null ? 'null' : printObject(value, depth)
    default:
      // A function or a symbol may stand for anything: nothing is fingerprinted.
      return undefined
  }
}

function printObject(value: object, depth: number): string | undefined {
  if (Array.isArray(value)) return printList(value, depth)
  if (value instanceof RegExp) return `/${value.source}/${value.flags}`
  const internals = (value as { _zod?: { def?: unknown } })._zod
  if (internals?.def !== undefined) {
    // A schema, or a check: its definition, and for a schema the metadata registered for it.
    const def = printFields(internals.def as object, depth + 1)
    if (def === undefined) return undefined
    if (!('~standard' in value)) return `c${def}`
    const meta = z.globalRegistry.get(value as z.ZodType)
    const printedMeta = meta === undefined ? '' : printFields(meta, depth + 1)
    return printedMeta === undefined ? undefined : `z${def}${printedMeta}`
  }
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return undefined
  return printFields(value, depth + 1)
}

function printList(items: readonly unknown[], depth: number): string | undefined {
  const parts: string[] = []
  for (const item of items) {
    const part = print(item, depth + 1)
    if (part === undefined) return undefined
    parts.push(part)
  }
  return `[${parts.join(',')}]`
}

function printFields(fields: object, depth: number): string | undefined {
  const parts: string[] = []
  for (const key of Object.keys(fields)) {
    const field = (fields as Record<string, unknown>)[key]
    if (typeof field === 'function' && key === 'error') continue
    const part =
      typeof field === 'function' && key === 'when' ? `when#${guardNumber(field)}` : print(field, depth)
    if (part === undefined) return undefined
    parts.push(`${JSON.stringify(key)}:${part}`)
  }
  return `{${parts.join(',')}}`
}

function guardNumber(guard: object): number {
  let number = guards.get(guard)
  if (number === undefined) {
    number = nextGuard++
    guards.set(guard, number)
  }
  return number
}
