/**
 * @module result-size
 * The size of a result on the wire, in bytes of its JSON, measured once: the JSON it measured is
 * kept for the result's encoder, so a result within its budget is not encoded twice.
 */
import { rememberEncoding } from '../encoding-key.ts'

/**
 * The UTF-8 size of `result`'s JSON when it is larger than `maxBytes`; undefined when it fits (its
 * JSON is then kept for the encoder).
 */
export function oversize(result: object, maxBytes: number): number | undefined {
  const json = JSON.stringify(result)
  // A UTF-16 code unit is one to three bytes of UTF-8: the exact count only where it decides.
  if (json.length > maxBytes) return utf8Length(json)
  if (json.length * 3 > maxBytes) {
    const bytes = utf8Length(json)
    if (bytes > maxBytes) return bytes
  }
  rememberEncoding(result, json)
  return undefined
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
