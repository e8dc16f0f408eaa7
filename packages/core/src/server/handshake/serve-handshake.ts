/**
 * @module serve-handshake
 * The 2025-11-25 pipeline inside a session: capabilities and log level come from the session,
 * results carry no `resultType` or cache hints, a missing resource is -32002, and a handler that
 * asks for input (written once, in the 2026-07-28 style) has its asks sent as real requests to
 * the client and is re-entered with the answers, up to the round limit.
 */

import { TesseraError } from '../../errors.ts'
import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc/message.ts'
import type { InputRequest } from '../../protocol/modern/input-requests.ts'
import type { RequestMeta } from '../../protocol/modern/request-meta.ts'
import { INPUT_KEY_META, isLoggingLevel, MRTR_METHODS } from '../../protocol/modern/vocabulary.ts'
import { type ResponseReply, success } from '../../reply.ts'
import { withFields } from '../../with-fields.ts'
import { requireScopes } from '../authorization.ts'
import { type Catalogue, readScopes } from '../catalogue.ts'
import type { Exchange } from '../exchange.ts'
import { clipped, type MethodCall, type MethodSpec, type ServerParts } from '../methods/method-call.ts'
import { observedRequest } from '../pipeline/observed-request.ts'
import { ClientRequestError } from './outbound.ts'
import type { SessionChange, SessionRecord } from './session-store.ts'

/** What the pipeline needs of the session a request runs in. */
export interface SessionContext {
  readonly record: SessionRecord
  apply(change: SessionChange): Promise<void>
  /** Sends one request to the client on this request's stream and waits for its answer. */
  askClient(method: string, params: JsonObject | undefined, exchange: Exchange): Promise<JsonObject>
}

/** The methods a session answers itself, before the method table (telemetry names them too). */
export const SESSION_METHODS: ReadonlySet<string> = new Set([
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
  'initialize',
])

export function serveHandshake(
  server: ServerParts,
  request: JsonRpcRequest,
  session: SessionContext,
  exchange: Exchange,
): Promise<ResponseReply> {
  // A call the client cancelled is not a server fault: nothing to log, and nothing will be sent.
  const origin = { headers: exchange.headers, sessionId: session.record.id, cancellable: exchange }
  return observedRequest(server.services, request, origin, async (watch) => {
    const result = await dispatch(server, request, session, exchange)
    watch.answered(undefined, result.isError === true)
    return success(request.id, result)
  })
}

async function dispatch(
  server: ServerParts,
  request: JsonRpcRequest,
  session: SessionContext,
  exchange: Exchange,
): Promise<JsonObject> {
  const params = request.params ?? {}
  switch (request.method) {
    case 'ping':
      return {}
    case 'logging/setLevel':
      if (!isLoggingLevel(params.level))
        throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: unknown level.')
      await session.apply({ kind: 'log-level', level: params.level })
      return {}
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return subscription(server.catalogue, request.method, params, session, exchange)
    case 'initialize':
      throw new TesseraError(
        'TESSERA_INVALID_REQUEST',
        'Invalid request: this session is already initialized.',
      )
  }
  // What exists in 2026-07-28 only (discover, listen, the tasks extension) is not found here.
  const spec = server.methods.find(request.method, 'handshake', server.catalogue)
  if (spec === undefined) {
    throw new TesseraError('TESSERA_METHOD_NOT_FOUND', `Method not found: ${request.method.slice(0, 64)}.`)
  }
  const call: MethodCall = {
    catalogue: server.catalogue,
    services: server.services,
    request,
    params,
    meta: metaOf(session.record, params),
    era: 'handshake',
    exchange,
    measured: undefined,
  }
  const { limiter } = server.services
  if (limiter.active) await limiter.admit(request.method, exchange)
  const result = MRTR_METHODS.has(request.method) ? await withShim(call, spec, session) : await spec.run(call)
  return handshakeShape(result)
}

/** The longest URI a session may subscribe to, as `resources/read` allows. */
const MAX_URI_LENGTH = 4096

async function subscription(
  catalogue: Pick<Catalogue, 'resources'>,
  method: string,
  params: JsonObject,
  session: SessionContext,
  exchange: Exchange,
): Promise<JsonObject> {
  if (catalogue.resources.size === 0)
    throw new TesseraError('TESSERA_METHOD_NOT_FOUND', `Method not found: ${method}.`)
  if (typeof params.uri !== 'string')
    throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: uri must be a string.')
  if (params.uri.length > MAX_URI_LENGTH)
    throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: uri is too long.')
  // A subscription names a resource this server serves (not a prefix, not any text a session
  // would store), and following it needs what reading it needs: its updates would tell what the
  // read refuses.
  if (method === 'resources/subscribe') {
    const scopes = readScopes(catalogue, params.uri)
    if (scopes === undefined)
      throw new TesseraError(
        'TESSERA_RESOURCE_NOT_FOUND',
        `Resource not found: ${clipped(params.uri, 256)}`,
        {
          uri: params.uri,
        },
      )
    requireScopes(scopes, exchange.auth, `Resource '${clipped(params.uri)}'`)
  }
  await session.apply({
    kind: method === 'resources/subscribe' ? 'subscribe' : 'unsubscribe',
    uri: params.uri,
  })
  return {}
}

/** Re-enters a multi round-trip handler with real answers from the client until it completes. */
async function withShim(call: MethodCall, spec: MethodSpec, session: SessionContext): Promise<JsonObject> {
  const { services } = call
  let params = call.params
  for (let round = 0; round <= services.maxRounds; round++) {
    const result = await spec.run(withFields(call, { params }))
    if (result.resultType !== 'input_required') return result
    const requests = (result.inputRequests ?? {}) as Record<string, InputRequest>
    const responses: JsonObject = {}
    for (const [key, request] of Object.entries(requests)) {
      // The request to the client is a phase of the call: the time spent waiting shows.
      responses[key] = await services.observer.phase({ clientRequest: request.method }, () =>
        askClient(session, key, request, call.exchange),
      )
    }
    params = withFields(call.params, { inputResponses: responses, requestState: result.requestState })
  }
  throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: too many input rounds for one call.')
}

/**
 * The request to the client carries the key its handler asked under, in a namespaced `_meta`
 * entry clients ignore: a test or a console can answer by key in this era too.
 */
async function askClient(
  session: SessionContext,
  key: string,
  request: InputRequest,
  exchange: Exchange,
): Promise<JsonObject> {
  const own = request.params as JsonObject | undefined
  const params: JsonObject = withFields(own, {
    _meta: withFields(own?._meta as JsonObject | undefined, { [INPUT_KEY_META]: key }),
  })
  if (request.method === 'elicitation/create' && params.mode === 'url')
    params.elicitationId = globalThis.crypto.randomUUID()
  try {
    return await session.askClient(request.method, params, exchange)
  } catch (error) {
    // Cancelled: no answer is owed; shutting down: the error says so itself.
    if (!(error instanceof ClientRequestError) || error.reason === 'cancelled' || error.reason === 'shutdown')
      throw error
    // A client that refused to elicit said no; one that never answered said nothing at all.
    if (request.method === 'elicitation/create' && error.reason === 'error') return { action: 'cancel' }
    throw new TesseraError(
      'TESSERA_CLIENT_REQUEST_FAILED',
      `Internal error: the client did not answer ${request.method}.`,
    )
  }
}

function metaOf(session: SessionRecord, params: JsonObject): RequestMeta {
  const meta = params._meta
  const token = typeof meta === 'object' && meta !== null ? (meta as JsonObject).progressToken : undefined
  return {
    protocolVersion: session.protocolVersion,
    clientCapabilities: session.clientCapabilities,
    clientInfo: session.clientInfo,
    logLevel: session.logLevel,
    progressToken: typeof token === 'string' || typeof token === 'number' ? token : undefined,
  }
}

/** 2025-11-25 results have no resultType and no cache hints. */
function handshakeShape(result: JsonObject): JsonObject {
  if (!('resultType' in result) && !('ttlMs' in result) && !('cacheScope' in result)) return result
  const { resultType: _r, ttlMs: _t, cacheScope: _c, ...rest } = result
  return rest
}
