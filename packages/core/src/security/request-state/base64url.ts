/**
 * @module base64url
 * Strict base64url decoding (RFC 4648 §5, unpadded) in script, `#crypto`'s decoder on the web
 * (Node's checks its native decoder's bytes instead). Each byte string has exactly one accepted
 * spelling: padding, `+`/`/`, whitespace and spare low bits in the last symbol are refused, so a
 * single-use record or a cache keyed on token text cannot be bypassed by re-spelling (a lenient
 * decoder such as `atob` ignores those spare bits, so several strings decode alike).
 */

import type { Bytes } from '../crypto.ts'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const SYMBOL_VALUES = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) SYMBOL_VALUES[ALPHABET.charCodeAt(i)] = i

/**
 * Decodes `text.slice(start, end)` as canonical unpadded base64url, or returns undefined.
 * Equivalent to decode, re-encode and compare, without building the second string: the only
 * non-canonical spellings in this alphabet are a length of 4n+1 and non-zero spare bits.
 * @example
 * ```ts
 * import { decodeBase64url } from './base64url.ts'
 *
 * decodeBase64url('AQI') // Uint8Array [1, 2]
 * decodeBase64url('AQJ') // undefined: a spare bit is set
 * ```
 */
export function decodeBase64url(text: string, start = 0, end = text.length): Bytes | undefined {
  const length = end - start
  const tail = length & 3
  if (tail === 1 || start < 0 || length < 0 || end > text.length) return undefined
  const out = new Uint8Array((length * 3) >> 2)
  const fullEnd = end - tail
  let o = 0
  for (let i = start; i < fullEnd; i += 4) {
    const quad = (sym(text, i) << 18) | (sym(text, i + 1) << 12) | (sym(text, i + 2) << 6) | sym(text, i + 3)
    if (quad < 0) return undefined
    out[o++] = quad >> 16
    out[o++] = (quad >> 8) & 0xff
    out[o++] = quad & 0xff
  }
  return decodeTail(text, fullEnd, tail, out, o)
}

function decodeTail(text: string, at: number, tail: number, out: Bytes, o: number): Bytes | undefined {
  if (tail === 0) return out
  const a = sym(text, at)
  const b = sym(text, at + 1)
  if (tail === 2) {
    if ((a | b) < 0 || (b & 0x0f) !== 0) return undefined
    out[o] = (a << 2) | (b >> 4)
    return out
  }
  const c = sym(text, at + 2)
  if ((a | b | c) < 0 || (c & 0x03) !== 0) return undefined
  out[o] = (a << 2) | (b >> 4)
  out[o + 1] = ((b & 0x0f) << 4) | (c >> 2)
  return out
}

// -1 for anything outside the alphabet; OR-ing the shifted values keeps the sign bit set.
function sym(text: string, index: number): number {
  const code = text.charCodeAt(index)
  return code < 128 ? SYMBOL_VALUES[code]! : -1
}
