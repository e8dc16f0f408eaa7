/**
 * @module method-call
 * What every method implementation receives, whichever era and transport the request came from.
 */
import { TesseraError } from '../../errors.ts'
import type { JsonObject, JsonRpcRequest, ResultObject } from '../../protocol/jsonrpc/message.ts'
import type { RequestMeta } from '../../protocol/modern/request-meta.ts'
import type { Catalogue } from '../catalogue.ts'
import type { ContextInit, Era } from '../context.ts'
import type { Exchange } from '../exchange.ts'
import type { MeasuredResult } from '../limits/result-size.ts'
import type { Services } from '../services.ts'

export interface MethodCall {
  readonly catalogue: Catalogue
  readonly services: Services
  readonly request: JsonRpcRequest
  readonly params: JsonObject
  /** Version, capabilities and opt-ins: from `_meta` (2026-07-28) or from the session. */
  readonly meta: RequestMeta
  readonly era: Era
  readonly exchange: Exchange
  /**
   * The result whose size this call checked, with its JSON: sending or recording that result
   * reuses the text. Cheaper than keeping it by the result in a `WeakMap`, which costs a `tools/call`
   * as much as encoding a small result does.
   */
  measured?: MeasuredResult | undefined
}

export type MethodImpl = (call: MethodCall) => Promise<ResultObject> | ResultObject

/** One entry of a server's method table. */
export interface MethodSpec {
  run: MethodImpl
  /** Whether it is served now, in `era` (default: always). */
  enabled?: (catalogue: Catalogue, era: Era) => boolean
  /** The params field `Mcp-Name` mirrors, when the method has one. */
  nameParam?: string
}

/** A server's methods: the core's and those of its extensions. */
export interface Methods {
  /** The method served as `method` in `era` now; undefined when there is none (-32601). */
  find(method: string, era: Era, catalogue: Catalogue): MethodSpec | undefined
  /** Every method name the server knows, served now or not. */
  names(): string[]
}

/** The server a method runs on: what it offers, the services it may use, and its methods. */
export interface ServerParts {
  readonly catalogue: Catalogue
  readonly services: Services
  readonly methods: Methods
}

export function contextInit(call: MethodCall): ContextInit {
  return {
    requestId: call.request.id,
    method: call.request.method,
    era: call.era,
    protocolVersion: call.meta.protocolVersion,
    clientCapabilities: call.meta.clientCapabilities,
    clientInfo: call.meta.clientInfo,
    // No log messages unless the server declared the logging capability.
    logLevel: call.catalogue.logging ? call.meta.logLevel : undefined,
    progressToken: call.meta.progressToken,
    exchange: call.exchange,
    logger: call.services.logger,
    target: targetOf(call),
  }
}

function targetOf(call: MethodCall): string | undefined {
  const params = call.params
  const target = call.request.method === 'resources/read' ? params.uri : params.name
  return typeof target === 'string' ? clipped(target) : undefined
}

export function invalidParams(message: string, data?: unknown): never {
  throw new TesseraError('TESSERA_INVALID_PARAMS', `Invalid params: ${message}`, data)
}

/** A name or URI echoed in an error, cut short so a huge one cannot fill the reply. */
export function clipped(text: string, max = 128): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}
