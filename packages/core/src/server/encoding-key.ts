/**
 * @module encoding-key
 * A result that is the same for every caller until something changes (the first page of a list
 * nobody's scopes filter) names what it follows, an object replaced on every change, under
 * `ENCODING_KEY`; the pipeline then encodes it once per key instead of once per request. A symbol
 * key, so no encoding of the result ever shows it. A result whose size was measured keeps the JSON
 * it was measured with, for its encoder.
 */
import type { JsonObject } from '../protocol/jsonrpc/message.ts'

export const ENCODING_KEY: unique symbol = Symbol('tessera.encoding-key')

export type KeyedResult = JsonObject & { [ENCODING_KEY]?: object }

/** Marks `result` as encoded alike for as long as `key` is the object it follows. */
export function keyedResult(result: JsonObject, key: object): KeyedResult {
  ;(result as KeyedResult)[ENCODING_KEY] = key
  return result
}

/** The JSON of results measured before they were sent (their size checked against a budget). */
const MEASURED = new WeakMap<object, string>()

/** Keeps `json`, the encoding of `result` as it is now, for its encoder: it is not encoded twice. */
export function rememberEncoding(result: object, json: string): void {
  MEASURED.set(result, json)
}

/** The JSON kept for `result` when it was measured; undefined when it was not. */
export function measuredEncoding(result: object): string | undefined {
  return MEASURED.get(result)
}
