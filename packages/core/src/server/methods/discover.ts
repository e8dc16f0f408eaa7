/**
 * @module discover
 * `server/discover`: what a client used to learn from `initialize`, now asked per request and
 * cacheable.
 */
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { MethodCall } from './method-call.ts'

export function discover({ core }: MethodCall): JsonObject {
  const result: JsonObject = {
    supportedVersions: [...core.versions.modern, ...core.versions.handshake],
    capabilities: core.capabilities(),
  }
  if (core.instructions !== undefined) result.instructions = core.instructions
  result.ttlMs = core.cache.discover.ttlMs
  result.cacheScope = core.cache.discover.cacheScope
  return result
}
