/**
 * @module discover
 * `server/discover`: what a client used to learn from `initialize`, now asked per request and
 * cacheable.
 */
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import { keyedResult } from '../encoding-key.ts'
import type { MethodCall } from './method-call.ts'

export function discover({ core }: MethodCall): JsonObject {
  // Everything else in it is fixed for the server's life: the result is the capabilities' own.
  const capabilities = core.capabilities()
  const result: JsonObject = {
    supportedVersions: [...core.versions.modern, ...core.versions.handshake],
    capabilities,
  }
  if (core.instructions !== undefined) result.instructions = core.instructions
  result.ttlMs = core.cache.discover.ttlMs
  result.cacheScope = core.cache.discover.cacheScope
  return keyedResult(result, capabilities)
}
