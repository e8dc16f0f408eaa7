/**
 * @module canonical-json
 * RFC 8785 JSON Canonicalization (JCS) of JSON values, used to digest tool and prompt arguments
 * for the requestState binding. One JSON value has one text, and distinct values never share one:
 * objects stay objects (`{"0":"a"}` is not `["a"]`, `{}` is not `[]`), unlike the PHP SDK's
 * sort-then-encode trap.
 */

/** Containers nested deeper than this throw a RangeError (also stops cycles). */
export const MAX_CANONICAL_DEPTH = 64

/**
 * Serialises a JSON value per RFC 8785: keys sorted by UTF-16 code units, ECMAScript number
 * formatting, no whitespace. Throws TypeError on values JSON cannot carry (undefined at the top
 * or in an array, functions, symbols, BigInt, non-finite numbers, class instances) and RangeError
 * past {@link MAX_CANONICAL_DEPTH}. Undefined object members are skipped, as JSON.stringify does.
 * @example
 * ```ts
 * import { canonicalJson } from './canonical-json.ts'
 *
 * canonicalJson({ b: [1.0, -0], a: 'x' }) // '{"a":"x","b":[1,0]}'
 * ```
 */
export function canonicalJson(value: unknown, known?: CanonicalTexts): string {
  return write(value, 0, known)
}

/**
 * The canonical texts of objects that never change (frozen, shared): an object found here is
 * written as its text, not walked again.
 */
export type CanonicalTexts = WeakMap<object, string>

function write(value: unknown, depth: number, known: CanonicalTexts | undefined): string {
  switch (typeof value) {
    case 'string':
      return quote(value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} is not a JSON number`)
      // ECMAScript Number::toString is exactly the JCS number form (and turns -0 into "0").
      return String(value)
    case 'object':
      if (value === null) return 'null'
      if (depth >= MAX_CANONICAL_DEPTH) {
        throw new RangeError(`canonicalJson: nesting deeper than ${MAX_CANONICAL_DEPTH}`)
      }
      return (
        known?.get(value) ??
        (Array.isArray(value) ? writeArray(value, depth + 1, known) : writeObject(value, depth + 1, known))
      )
    default:
      throw new TypeError(`canonicalJson: ${typeof value} is not a JSON value`)
  }
}

/**
 * What `JSON.stringify` would escape: a control character, a quote, a backslash, and any surrogate
 * (a lone one is written as `\uXXXX`; a pair is written as it is, but goes through it too).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes
const ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/

/**
 * A string's JSON text. Most keys and values need no escape, and quoting those directly costs a
 * fraction of a call into `JSON.stringify`, which the rest still goes through.
 */
function quote(text: string): string {
  return ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`
}

function writeArray(items: readonly unknown[], depth: number, known: CanonicalTexts | undefined): string {
  let out = '['
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ','
    // JSON.stringify would turn undefined into null, making [undefined] spell like [null].
    if (items[i] === undefined) throw new TypeError('canonicalJson: undefined array element')
    out += write(items[i], depth, known)
  }
  return `${out}]`
}

function writeObject(object: object, depth: number, known: CanonicalTexts | undefined): string {
  const proto = Object.getPrototypeOf(object)
  if (proto !== Object.prototype && proto !== null) {
    throw new TypeError('canonicalJson: only plain objects and arrays are JSON containers')
  }
  const record = object as Record<string, unknown>
  // The default sort compares UTF-16 code units, which is the order RFC 8785 §3.2.3 requires.
  const keys = Object.keys(record).sort()
  let out = '{'
  for (const key of keys) {
    const member = record[key]
    if (member === undefined) continue
    if (out.length > 1) out += ','
    out += `${quote(key)}:${write(member, depth, known)}`
  }
  return `${out}}`
}
