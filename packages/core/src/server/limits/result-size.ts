/**
 * @module result-size
 * The size of a result on the wire, in bytes of its JSON, measured once: the call keeps the JSON
 * it measured, so a result within its budget is not encoded again to be sent or recorded.
 */

/** A result and the JSON it was measured with, kept by the call that measured it. */
export interface MeasuredResult {
  readonly result: object
  readonly json: string
}

/** The UTF-8 size of `json` when it is larger than `maxBytes`; undefined when it fits. */
export function oversize(json: string, maxBytes: number): number | undefined {
  // A UTF-16 code unit is one to three bytes of UTF-8: the exact count only where it decides.
  if (json.length > maxBytes) return utf8Length(json)
  if (json.length * 3 > maxBytes) {
    const bytes = utf8Length(json)
    if (bytes > maxBytes) return bytes
  }
  return undefined
}

/**
 * `result`'s JSON: the text it was measured with when `measured` is of this very object (a copy,
 * or another result, is encoded afresh).
 */
export function encodingOf(result: object, measured: MeasuredResult | undefined): string {
  return measured !== undefined && measured.result === result ? measured.json : JSON.stringify(result)
}

function utf8Length(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit < 0x80) continue
    if (unit < 0x800) bytes += 1
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      // A surrogate pair: four bytes for two units.
      bytes += 2
      i++
    } else bytes += 2
  }
  return bytes
}
