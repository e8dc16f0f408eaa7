/**
 * @module method-call
 * What every method implementation receives, whichever era and transport the request came from.
 */
import { TesseraError } from '../../errors.ts'
import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc/message.ts'
import type { Envelope } from '../../protocol/modern/envelope.ts'
import type { ContextInit, Era } from '../context.ts'
import type { Exchange } from '../exchange.ts'
import type { ServerCore } from '../server-core.ts'

export interface MethodCall {
  readonly core: ServerCore
  readonly request: JsonRpcRequest
  readonly params: JsonObject
  readonly envelope: Envelope
  readonly era: Era
  readonly exchange: Exchange
}

export type MethodImpl = (call: MethodCall) => Promise<JsonObject> | JsonObject

export function contextInit(call: MethodCall): Omit<ContextInit, 'round'> {
  return {
    requestId: call.request.id,
    method: call.request.method,
    era: call.era,
    protocolVersion: call.envelope.protocolVersion,
    clientCapabilities: call.envelope.clientCapabilities,
    clientInfo: call.envelope.clientInfo,
    // No log messages unless the server declared the logging capability.
    logLevel: call.core.logging ? call.envelope.logLevel : undefined,
    progressToken: call.envelope.progressToken,
    exchange: call.exchange,
  }
}

export function invalidParams(message: string, data?: unknown): never {
  throw new TesseraError('TESSERA_INVALID_PARAMS', `Invalid params: ${message}`, data)
}
