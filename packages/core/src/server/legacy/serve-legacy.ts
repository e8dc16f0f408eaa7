/**
 * @module serve-legacy
 * The 2025-11-25 pipeline inside a session: capabilities and log level come from the session,
 * results carry no `resultType` or cache hints, a missing resource is -32002, and a handler that
 * asks for input (written once, MRTR style) has its asks sent as real requests to the client and
 * is re-entered with the answers, up to the round limit.
 */
import { randomUUID } from 'node:crypto'
import { TesseraError } from '../../errors.ts'
import { ErrorCode } from '../../protocol/jsonrpc/error-codes.ts'
import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc/message.ts'
import type { Envelope } from '../../protocol/modern/envelope.ts'
import { isLoggingLevel, MRTR_METHODS } from '../../protocol/modern/vocabulary.ts'
import type { LegacyExchange } from '../exchange.ts'
import type { MethodCall } from '../methods/method-call.ts'
import type { InputRequest } from '../mrtr/input-requests.ts'
import { type MethodSpec, methodTable } from '../pipeline/method-table.ts'
import { type Reply, success, toTesseraError } from '../pipeline/reply.ts'
import type { ServerCore } from '../server-core.ts'
import { ClientRequestError } from './outbound.ts'
import type { LegacySession, SessionStore } from './session-store.ts'

const MODERN_ONLY = new Set(['server/discover', 'subscriptions/listen'])

export async function serveLegacy(
  core: ServerCore,
  request: JsonRpcRequest,
  session: LegacySession,
  sessions: SessionStore,
  exchange: LegacyExchange,
): Promise<Reply> {
  try {
    const result = await dispatch(core, request, session, sessions, exchange)
    return success(request.id, result)
  } catch (error) {
    // A call the client cancelled is not a server fault: nothing to log, and nothing will be sent.
    const log = exchange.signal.aborted
      ? () => {}
      : (err: unknown) =>
          core.logger.error({ event: 'internal_error', method: request.method, err }, 'internal error')
    const fault = toTesseraError(error, log)
    return {
      kind: 'response',
      status: 200,
      body: { jsonrpc: '2.0', id: request.id, error: legacyError(fault) },
    }
  }
}

async function dispatch(
  core: ServerCore,
  request: JsonRpcRequest,
  session: LegacySession,
  sessions: SessionStore,
  exchange: LegacyExchange,
): Promise<JsonObject> {
  const params = request.params ?? {}
  switch (request.method) {
    case 'ping':
      return {}
    case 'logging/setLevel':
      if (!isLoggingLevel(params.level))
        throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: unknown level.')
      await sessions.apply(session.id, { kind: 'log-level', level: params.level })
      return {}
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return subscription(core, request.method, params, session, sessions)
    case 'initialize':
      throw new TesseraError(
        'TESSERA_INVALID_REQUEST',
        'Invalid request: this session is already initialized.',
      )
  }
  const spec = methodTable[request.method]
  if (
    spec === undefined ||
    MODERN_ONLY.has(request.method) ||
    (spec.enabled !== undefined && !spec.enabled(core))
  ) {
    throw new TesseraError('TESSERA_METHOD_NOT_FOUND', `Method not found: ${request.method.slice(0, 64)}.`)
  }
  const call: MethodCall = {
    core,
    request,
    params,
    envelope: envelopeOf(session, params),
    era: 'legacy',
    exchange,
  }
  const result = MRTR_METHODS.has(request.method)
    ? await withShim(core, call, spec, exchange)
    : await spec.run(call)
  return legacyShape(result)
}

async function subscription(
  core: ServerCore,
  method: string,
  params: JsonObject,
  session: LegacySession,
  sessions: SessionStore,
): Promise<JsonObject> {
  if (core.resources.size === 0)
    throw new TesseraError('TESSERA_METHOD_NOT_FOUND', `Method not found: ${method}.`)
  if (typeof params.uri !== 'string')
    throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: uri must be a string.')
  const kind = method === 'resources/subscribe' ? 'subscribe' : 'unsubscribe'
  await sessions.apply(session.id, { kind, uri: params.uri })
  return {}
}

/** Re-enters an MRTR handler with real answers from the client until it completes. */
async function withShim(
  core: ServerCore,
  call: MethodCall,
  spec: MethodSpec,
  exchange: LegacyExchange,
): Promise<JsonObject> {
  let params = call.params
  for (let round = 0; round <= core.maxRounds; round++) {
    const result = await spec.run({ ...call, params })
    if (result.resultType !== 'input_required') return result
    const requests = (result.inputRequests ?? {}) as Record<string, InputRequest>
    const responses: JsonObject = {}
    for (const [key, request] of Object.entries(requests)) responses[key] = await askClient(exchange, request)
    params = { ...call.params, inputResponses: responses, requestState: result.requestState }
  }
  throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: too many input rounds for one call.')
}

async function askClient(exchange: LegacyExchange, request: InputRequest): Promise<JsonObject> {
  let params = request.params as JsonObject | undefined
  if (request.method === 'elicitation/create' && params?.mode === 'url')
    params = { ...params, elicitationId: randomUUID() }
  try {
    return await exchange.sendRequest(request.method, params)
  } catch (error) {
    if (!(error instanceof ClientRequestError) || error.reason === 'cancelled') throw error
    // A client that refused to elicit said no; one that never answered said nothing at all.
    if (request.method === 'elicitation/create' && error.reason === 'error') return { action: 'cancel' }
    throw new TesseraError('TESSERA_INTERNAL', `Internal error: the client did not answer ${request.method}.`)
  }
}

function envelopeOf(session: LegacySession, params: JsonObject): Envelope {
  const meta = (typeof params._meta === 'object' && params._meta !== null ? params._meta : {}) as JsonObject
  const token = meta.progressToken
  return {
    protocolVersion: session.protocolVersion,
    clientCapabilities: session.clientCapabilities,
    clientInfo: session.clientInfo,
    logLevel: session.logLevel,
    progressToken: typeof token === 'string' || typeof token === 'number' ? token : undefined,
    meta,
  }
}

/** 2025-11-25 results have no resultType and no cache hints. */
function legacyShape(result: JsonObject): JsonObject {
  if (!('resultType' in result) && !('ttlMs' in result) && !('cacheScope' in result)) return result
  const { resultType: _r, ttlMs: _t, cacheScope: _c, ...rest } = result
  return rest
}

function legacyError(fault: TesseraError): { code: number; message: string; data?: unknown } {
  let code = fault.jsonrpcCode
  if (fault.code === 'TESSERA_RESOURCE_NOT_FOUND') code = ErrorCode.LegacyResourceNotFound
  if (fault.code === 'TESSERA_MISSING_CAPABILITY') code = ErrorCode.InvalidParams
  return fault.data === undefined
    ? { code, message: fault.message }
    : { code, message: fault.message, data: fault.data }
}
