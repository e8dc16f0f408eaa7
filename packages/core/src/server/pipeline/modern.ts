/**
 * @module modern
 * The 2026-07-28 request pipeline, in the order the checks must run: the `_meta` envelope, the
 * version header, the version itself, the method header, the method, the name header, then the
 * method's own params, mirrors, capabilities and state. Headers are checked only when the
 * transport has them (HTTP). Every result leaves with `resultType` and `serverInfo`.
 */
import { SuccessStatus, TesseraError } from '../../errors.ts'
import type { JsonObject, JsonRpcId, JsonRpcRequest } from '../../protocol/jsonrpc/message.ts'
import { readRequestMeta } from '../../protocol/modern/request-meta.ts'
import {
  checkMethodHeader,
  checkNameHeader,
  checkVersionHeader,
  nameFieldOf,
} from '../../protocol/modern/standard-headers.ts'
import { ENCODING_KEY, type KeyedResult } from '../encoding-key.ts'
import type { Exchange } from '../exchange.ts'
import type { MethodCall } from '../methods/method-call.ts'
import type { ServerCore } from '../server-core.ts'
import type { RequestSpan } from '../telemetry/telemetry.ts'
import { methodTable } from './method-table.ts'
import { failure, type Reply, type ResponseReply, toTesseraError } from './reply.ts'
import { subscriptionsListen } from './subscriptions-listen.ts'

export async function serveModern(
  core: ServerCore,
  request: JsonRpcRequest,
  exchange: Exchange,
): Promise<Reply> {
  const span = core.telemetry.request({
    method: request.method,
    requestId: request.id,
    params: request.params as JsonObject | undefined,
    headers: exchange.headers,
  })
  try {
    return await span.run(() => dispatch(core, request, exchange, span))
  } catch (error) {
    const failed = toTesseraError(error, (err) =>
      core.logger.error({ event: 'internal_error', method: request.method, err }, 'internal error'),
    )
    span.failed(failed.jsonrpcCode, failed.message)
    return failure(request.id, failed)
  } finally {
    span.end(core.telemetry)
  }
}

async function dispatch(
  core: ServerCore,
  request: JsonRpcRequest,
  exchange: Exchange,
  span: RequestSpan,
): Promise<Reply> {
  const params = request.params
  const read = readRequestMeta(params)
  if (!read.ok) throw read.error
  const meta = read.meta
  const headers = exchange.headers
  if (headers) headerFault(checkVersionHeader(headers, meta.protocolVersion))
  if (!core.versions.modern.includes(meta.protocolVersion)) {
    throw new TesseraError('TESSERA_UNSUPPORTED_VERSION', 'Unsupported protocol version.', {
      supported: [...core.versions.modern, ...core.versions.handshake],
      requested: meta.protocolVersion,
    })
  }
  if (headers) headerFault(checkMethodHeader(headers, request.method))
  const spec = methodTable[request.method]
  if (spec === undefined || (spec.enabled !== undefined && !spec.enabled(core))) {
    throw new TesseraError('TESSERA_METHOD_NOT_FOUND', `Method not found: ${clip(request.method)}.`)
  }
  const nameField = nameFieldOf(request.method)
  if (headers && nameField !== undefined) {
    const value = (params as JsonObject)[nameField]
    if (typeof value === 'string') headerFault(checkNameHeader(headers, value))
  }
  const call: MethodCall = { core, request, params: params as JsonObject, meta, era: 'modern', exchange }
  if (request.method === 'subscriptions/listen') return await subscriptionsListen(call)
  const result = await spec.run(call)
  span.answered(result.resultType as string | undefined, result.isError === true)
  return encodeComplete(core, request.id, result)
}

/**
 * A complete result, serialized once. The common case (a result with neither `resultType` nor
 * `_meta` of its own) is spliced as text around the handler's JSON, so the result object is
 * neither copied nor mutated and the shared `serverInfo` is encoded once per server. A keyed
 * result is encoded once per key.
 */
function encodeComplete(core: ServerCore, id: JsonRpcId, result: JsonObject): ResponseReply {
  const key = (result as KeyedResult)[ENCODING_KEY]
  let json = key === undefined ? undefined : core.encodings.get(key)
  if (json === undefined) {
    json = encodeResult(core, result)
    if (key !== undefined) core.encodings.set(key, json)
  }
  const encoded = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${json}}`
  return {
    kind: 'response',
    status: SuccessStatus.ok,
    encoded,
    get body() {
      return JSON.parse(encoded) as { jsonrpc: '2.0'; id: JsonRpcId; result: JsonObject }
    },
  }
}

/** The result's JSON with `resultType` and the shared `_meta`. */
function encodeResult(core: ServerCore, result: JsonObject): string {
  if (result.resultType !== undefined || result._meta !== undefined)
    return JSON.stringify(withMeta(core, result))
  const json = JSON.stringify(result)
  if (json.length <= 2 || json[0] !== '{' || json[json.length - 1] !== '}')
    return JSON.stringify(withMeta(core, result))
  const meta = core.resultMetaJson
  const tail = meta === undefined ? '"resultType":"complete"}' : `"resultType":"complete","_meta":${meta}}`
  return `${json.slice(0, -1)},${tail}`
}

/** Adds `resultType` and the shared `serverInfo` `_meta` without touching the handler's object. */
function withMeta(core: ServerCore, result: JsonObject): JsonObject {
  const meta = core.resultMeta
  const own = result._meta as JsonObject | undefined
  const out: JsonObject = { ...result, resultType: result.resultType ?? 'complete' }
  if (meta !== undefined) out._meta = own === undefined ? meta : { ...own, ...meta }
  return out
}

function headerFault(fault: { message: string } | undefined): void {
  if (fault) throw new TesseraError('TESSERA_HEADER_MISMATCH', fault.message)
}

function clip(text: string): string {
  return text.length > 64 ? `${text.slice(0, 64)}…` : text
}
