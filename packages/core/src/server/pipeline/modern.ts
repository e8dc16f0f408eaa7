/**
 * @module modern
 * The 2026-07-28 request pipeline, in the order the checks must run: the `_meta` envelope, the
 * version header, the version itself, the method header, the method, the name header, then the
 * method's own params, mirrors, capabilities and state. Headers are checked only when the
 * transport has them (HTTP). Every result leaves with `resultType` and `serverInfo`.
 */
import { TesseraError } from '../../errors.ts'
import type { RequestWatch } from '../../observation/observer.ts'
import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc/message.ts'
import { readRequestMeta } from '../../protocol/modern/request-meta.ts'
import {
  checkMethodHeader,
  checkNameHeader,
  checkVersionHeader,
} from '../../protocol/modern/standard-headers.ts'
import type { Reply } from '../../reply.ts'
import type { Exchange } from '../exchange.ts'
import type { MethodCall, ServerParts } from '../methods/method-call.ts'
import { observedRequest } from './observed-request.ts'
import type { ResultEncoder } from './result-encoder.ts'
import { subscriptionsListen } from './subscriptions-listen.ts'

/** What the 2026-07-28 pipeline runs on: the server's parts and its encoder of complete results. */
export interface ModernServer extends ServerParts {
  readonly encoder: ResultEncoder
}

export function serveModern(
  server: ModernServer,
  request: JsonRpcRequest,
  exchange: Exchange,
): Promise<Reply> {
  const origin = { headers: exchange.headers }
  return observedRequest(server.services, request, origin, (watch) =>
    dispatch(server, request, exchange, watch),
  )
}

async function dispatch(
  server: ModernServer,
  request: JsonRpcRequest,
  exchange: Exchange,
  watch: RequestWatch,
): Promise<Reply> {
  const { catalogue } = server
  const params = request.params
  const read = readRequestMeta(params)
  if (!read.ok) throw read.error
  const meta = read.meta
  const headers = exchange.headers
  if (headers) headerFault(checkVersionHeader(headers, meta.protocolVersion))
  if (!catalogue.versions.modern.includes(meta.protocolVersion)) {
    throw new TesseraError('TESSERA_UNSUPPORTED_VERSION', 'Unsupported protocol version.', {
      supported: [...catalogue.versions.modern, ...catalogue.versions.handshake],
      requested: meta.protocolVersion,
    })
  }
  if (headers) headerFault(checkMethodHeader(headers, request.method))
  const spec = server.methods.find(request.method, 'modern', catalogue)
  if (spec === undefined) {
    throw new TesseraError('TESSERA_METHOD_NOT_FOUND', `Method not found: ${clip(request.method)}.`)
  }
  const nameParam = spec.nameParam
  if (headers && nameParam !== undefined) {
    const value = (params as JsonObject)[nameParam]
    if (typeof value === 'string') headerFault(checkNameHeader(headers, value))
  }
  const call: MethodCall = {
    catalogue,
    services: server.services,
    request,
    params: params as JsonObject,
    meta,
    era: 'modern',
    exchange,
    measured: undefined,
  }
  const { limiter } = server.services
  if (limiter.active) await limiter.admit(request.method, exchange)
  if (request.method === 'subscriptions/listen') return await subscriptionsListen(call)
  const result = await spec.run(call)
  watch.answered(result.resultType as string | undefined, result.isError === true)
  return server.encoder.complete(request.id, result, call.measured)
}

function headerFault(fault: { message: string } | undefined): void {
  if (fault) throw new TesseraError('TESSERA_HEADER_MISMATCH', fault.message)
}

function clip(text: string): string {
  return text.length > 64 ? `${text.slice(0, 64)}…` : text
}
