/**
 * @module names
 * Bounded rendering of schema-derived names and client-sent values inside messages. Names come
 * from tool authors and values from clients; either may be huge, and an unbounded -32020 message
 * can push a client's error handling past the size it reads before it maps the status.
 */

export const MAX_SHOWN = 64

/** `text` cut to `limit` code points (never splitting a surrogate pair), marked with `…`. */
export function bounded(text: string, limit = MAX_SHOWN): string {
  if (text.length <= limit) return text
  const points = Array.from(text.slice(0, limit * 2))
  if (points.length <= limit && text.length <= limit * 2) return text
  return `${points.slice(0, limit).join('')}…`
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what gets escaped
const CONTROL = /[\x00-\x1F\x7F]/g

/** A quoted, bounded, control-character-free rendering of a string for a one-line message. */
export function quoted(text: string): string {
  const visible = bounded(text).replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
  return `'${visible}'`
}

/** JSON-pointer rendering of a path of keys (RFC 6901 escaping). */
export function pointer(keys: readonly string[]): string {
  return keys.map((key) => `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')
}
