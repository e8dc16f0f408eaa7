/**
 * @module discover
 * `server/discover`: what a client used to learn from `initialize`, now asked per request and
 * cacheable.
 */
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import { keyedResult } from '../encoding-key.ts'
import type { MethodCall } from './method-call.ts'

export function discover({ catalogue }: MethodCall): JsonObject {
  // Everything else in it is fixed for the server's life: the result is the capabilities' own.
  const capabilities = catalogue.capabilities('modern')
  const result: JsonObject = {
    supportedVersions: [...catalogue.versions.modern, ...catalogue.versions.handshake],
    capabilities,
  }
  if (catalogue.instructions !== undefined) result.instructions = catalogue.instructions
  result.ttlMs = catalogue.cache.discover.ttlMs
  result.cacheScope = catalogue.cache.discover.cacheScope
  return keyedResult(result, capabilities)
}
