/**
 * @module json-integer
 * Exact reading of a JSON number token as an integer, for comparing an `Mcp-Param-*` header
 * with an integer body value. Doubles are never involved: 9007199254740993 and …992 must stay
 * distinct, and `1e3`, `1000.0` and `10.5e1` must each denote their exact integer.
 * Exponents are bounded before any arithmetic so `1e999999999` costs nothing.
 */

export type JsonInteger =
  | { kind: 'integer'; value: bigint }
  /** A valid JSON number whose value has a fractional part. */
  | { kind: 'fraction' }
  /** A valid JSON integer beyond ±(2^53−1). */
  | { kind: 'out-of-range' }
  /** Not a JSON number at all (hex, `+5`, `007`, `Infinity`, whitespace, …). */
  | { kind: 'invalid' }

export const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)
// Digits of MAX_SAFE (9007199254740991): anything with more integer digits is out of range.
const MAX_SAFE_DIGITS = 16
// Beyond this many exponent digits the value cannot be held as an exact double, but neither can
// it matter: no JavaScript string is long enough for a fraction to cancel such an exponent.
const MAX_EXPONENT_DIGITS = 15
const JSON_NUMBER = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?)([0-9]+))?$/

/** Reads `text` through the JSON number grammar and classifies it exactly. */
export function parseJsonInteger(text: string): JsonInteger {
  const match = JSON_NUMBER.exec(text)
  if (match === null) return { kind: 'invalid' }
  const [, sign = '', whole = '', fraction = '', expSign = '', expDigits = ''] = match
  const digits = `${whole}${fraction}`.replace(/^0+/, '')
  if (digits === '') return { kind: 'integer', value: 0n }
  const significant = withoutTrailingZeros(digits)
  const exponent = readExponent(expSign, expDigits)
  if (exponent === 'huge-positive') return { kind: 'out-of-range' }
  if (exponent === 'huge-negative') return { kind: 'fraction' }
  // value = significant × 10^scale, with `significant` free of leading and trailing zeros.
  const scale = exponent - fraction.length + (digits.length - significant.length)
  if (scale < 0) return { kind: 'fraction' }
  if (significant.length + scale > MAX_SAFE_DIGITS) return { kind: 'out-of-range' }
  const magnitude = BigInt(significant) * 10n ** BigInt(scale)
  if (magnitude > MAX_SAFE) return { kind: 'out-of-range' }
  return { kind: 'integer', value: sign === '-' ? -magnitude : magnitude }
}

// A loop, not /0+$/: that regex backtracks quadratically over a long run of inner zeros.
function withoutTrailingZeros(digits: string): string {
  let end = digits.length
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end -= 1
  return digits.slice(0, end)
}

function readExponent(sign: string, digits: string): number | 'huge-positive' | 'huge-negative' {
  const trimmed = digits.replace(/^0+/, '')
  if (trimmed.length > MAX_EXPONENT_DIGITS) return sign === '-' ? 'huge-negative' : 'huge-positive'
  const magnitude = trimmed === '' ? 0 : Number(trimmed)
  return sign === '-' ? -magnitude : magnitude
}
