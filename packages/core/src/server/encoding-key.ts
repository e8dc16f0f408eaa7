/**
 * @module encoding-key
 * A result that is the same for every caller until something changes (the first page of a list
 * nobody's scopes filter) names what it follows, an object replaced on every change, under
 * `ENCODING_KEY`; the pipeline then encodes it once per key instead of once per request. A symbol
 * key, so no encoding of the result ever shows it.
 */
import type { JsonObject } from '../protocol/jsonrpc/message.ts'

export const ENCODING_KEY: unique symbol = Symbol('tessera.encoding-key')

export type KeyedResult = JsonObject & { [ENCODING_KEY]?: object }

/** Marks `result` as encoded alike for as long as `key` is the object it follows. */
export function keyedResult(result: JsonObject, key: object): KeyedResult {
  ;(result as KeyedResult)[ENCODING_KEY] = key
  return result
}
