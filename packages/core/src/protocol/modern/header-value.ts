/**
 * @module header-value
 * Decoding of MCP header values (SEP-2243): plain visible ASCII, or the
 * `=?base64?…?=` sentinel carrying UTF-8 bytes. Shared by the standard `Mcp-Name`
 * check and by `Mcp-Param-*` mirroring, so both decode exactly alike.
 */

/** A header value decoded to its text, or why it cannot be (never thrown: the value is the peer's). */
export type DecodedHeaderValue = { ok: true; value: string } | { ok: false; reason: string }

const SENTINEL_PREFIX = '=?base64?'
const SENTINEL_SUFFIX = '?='
// Standard alphabet, canonical padding: groups of four, the last may end in one or two '='.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
// Visible ASCII, space and tab: the only characters a plain header value may hold.
const PLAIN = /^[\x20-\x7E\t]*$/
// ignoreBOM keeps a leading U+FEFF: the default would strip it, so a body value starting with one
// could never match its own faithful mirror.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
// Plain form a client may send as-is: visible ASCII with inner spaces. Tab is a control character
// (0x09), which clients must encode even though servers accept it in plain values.
const SENDABLE_PLAIN = /^[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?$/

/** Decodes one raw header value as received (HTTP parsing already trimmed surrounding whitespace). */
export function decodeHeaderValue(raw: string): DecodedHeaderValue {
  if (!PLAIN.test(raw)) return { ok: false, reason: 'contains characters outside visible ASCII' }
  if (raw.length < SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length) return { ok: true, value: raw }
  if (!raw.startsWith(SENTINEL_PREFIX) || !raw.endsWith(SENTINEL_SUFFIX)) return { ok: true, value: raw }
  const encoded = raw.slice(SENTINEL_PREFIX.length, raw.length - SENTINEL_SUFFIX.length)
  if (!BASE64.test(encoded)) return { ok: false, reason: 'is not valid Base64' }
  const binary = atob(encoded)
  // Spare low bits in the last symbol would let two spellings decode to one value.
  if (btoa(binary) !== encoded) return { ok: false, reason: 'is not canonical Base64' }
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  try {
    return { ok: true, value: utf8.decode(bytes) }
  } catch {
    return { ok: false, reason: 'does not decode to UTF-8' }
  }
}

/** Encodes a value the way a conforming client mirrors it into a header. */
export function encodeHeaderValue(value: string): string {
  const needsSentinel =
    !SENDABLE_PLAIN.test(value) || (value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX))
  if (value === '' || !needsSentinel) return value
  return `${SENTINEL_PREFIX}${base64OfUtf8(value)}${SENTINEL_SUFFIX}`
}

// TextEncoder, atob and btoa rather than Buffer: every platform has them, and clients in a browser
// (the development console) encode too.
function base64OfUtf8(value: string): string {
  let binary = ''
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte)
  return btoa(binary)
}
