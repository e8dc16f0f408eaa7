/**
 * @module result-encoder
 * How a complete 2026-07-28 result goes on the wire: with `resultType` and the server's shared
 * `_meta` (its `serverInfo`), serialized once. The common case (a result with neither
 * `resultType` nor `_meta` of its own) is spliced as text around the handler's JSON, so the
 * result object is neither copied nor mutated and the shared `_meta` is encoded once per server.
 * A keyed result (`encoding-key.ts`) is encoded once per key, and a measured one is not encoded
 * again.
 */
import { SuccessStatus } from '../../errors.ts'
import type { JsonObject, JsonRpcId, JsonRpcResponse } from '../../protocol/jsonrpc/message.ts'
import type { ResponseReply } from '../../reply.ts'
import { withFields } from '../../with-fields.ts'
import { ENCODING_KEY, type KeyedResult } from '../encoding-key.ts'
import { encodingOf, type MeasuredResult } from '../limits/result-size.ts'

export class ResultEncoder {
  /** `{ "io.modelcontextprotocol/serverInfo": info }`, shared by every result; undefined when off. */
  readonly #meta: JsonObject | undefined
  /** What a result with a `resultType` of its own gets after its fields: the shared `_meta`. */
  readonly #metaTail: string | undefined
  /** What a result without one gets: `resultType` and the shared `_meta`. */
  readonly #completeTail: string
  readonly #byKey = new WeakMap<object, string>()

  constructor(meta: JsonObject | undefined) {
    this.#meta = meta
    this.#metaTail = meta && `"_meta":${JSON.stringify(meta)}`
    this.#completeTail = `"resultType":"complete"${this.#metaTail === undefined ? '' : `,${this.#metaTail}`}`
  }

  /**
   * The response carrying `result` as the complete answer to request `id`; `measured`, the JSON
   * its call measured, when it did.
   */
  complete(id: JsonRpcId, result: JsonObject, measured?: MeasuredResult): ResponseReply {
    const key = (result as KeyedResult)[ENCODING_KEY]
    let json = key === undefined ? undefined : this.#byKey.get(key)
    if (json === undefined) {
      json = this.#encode(result, measured)
      if (key !== undefined) this.#byKey.set(key, json)
    }
    // An id is a safe integer or a string: the integer's JSON is its decimal text.
    const idJson = typeof id === 'number' ? `${id}` : JSON.stringify(id)
    return new EncodedResponse(`{"jsonrpc":"2.0","id":${idJson},"result":${json}}`)
  }

  /**
   * The result's JSON with `resultType` and the shared `_meta`: the same text as the result with
   * those fields added (a `resultType` of its own keeps its place), spliced after its own JSON
   * unless it has a `_meta` of its own to merge.
   */
  #encode(result: JsonObject, measured: MeasuredResult | undefined): string {
    if (result._meta !== undefined) return JSON.stringify(this.#withMeta(result))
    const typed = result.resultType !== undefined
    const json = typed ? JSON.stringify(result) : encodingOf(result, measured)
    if (json.length <= 2 || json[0] !== '{' || json[json.length - 1] !== '}')
      return JSON.stringify(this.#withMeta(result))
    const tail = typed ? this.#metaTail : this.#completeTail
    return tail === undefined ? json : `${json.slice(0, -1)},${tail}}`
  }

  /** Adds `resultType` and the shared `_meta` without touching the handler's object. */
  #withMeta(result: JsonObject): JsonObject {
    const meta = this.#meta
    const own = result._meta as JsonObject | undefined
    const resultType = result.resultType ?? 'complete'
    if (meta === undefined) return withFields(result, { resultType })
    return withFields(result, { resultType, _meta: own === undefined ? meta : withFields(own, meta) })
  }
}

/**
 * A complete answer already in its wire text; `body` parses it for the rare reader that wants the
 * object. A class, not an object literal with a getter: a literal's getter gives every reply a
 * hidden class of its own, which the old generation keeps (with the getter's closure and the text
 * it holds) until a full collection, so every reply outlived the young generation and a loaded
 * server spent its time in mark-compacts.
 */
class EncodedResponse implements ResponseReply {
  readonly kind = 'response'
  readonly status = SuccessStatus.ok
  constructor(readonly encoded: string) {}

  get body(): JsonRpcResponse {
    return JSON.parse(this.encoded) as JsonRpcResponse
  }
}
