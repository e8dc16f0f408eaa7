/**
 * @module server-core
 * The internal state a server's method handlers read: registries, resolved options and services.
 * It is plain data behind an interface so each method lives in its own small module.
 */
import type { JsonObject } from '../protocol/jsonrpc/message.ts'
import type { ServerCapabilities } from '../protocol/modern/capabilities.ts'
import type { Implementation } from '../protocol/modern/envelope.ts'
import type { SingleUseGuard } from '../security/replay/index.ts'
import type { EventStore } from './legacy/event-store.ts'
import type { OutboundRequests } from './legacy/outbound.ts'
import type { SessionStore } from './legacy/session-store.ts'
import type { Logger } from './logger.ts'
import type { StateService } from './mrtr/state-service.ts'
import type { NotificationBus } from './notification-bus.ts'
import type { PromptRegistry } from './registry/prompts.ts'
import type { ResourceRegistry } from './registry/resources.ts'
import type { ToolRegistry } from './registry/tools.ts'
import type { CacheHint, CacheHints } from './types.ts'

export interface ServerCore {
  readonly info: Implementation
  /** `{ "io.modelcontextprotocol/serverInfo": info }`, built once and shared by every result. */
  readonly resultMeta: JsonObject | undefined
  readonly instructions: string | undefined
  readonly tools: ToolRegistry
  readonly resources: ResourceRegistry
  readonly prompts: PromptRegistry
  readonly cache: Required<Omit<CacheHints, 'default'>>
  readonly pageSize: number
  readonly maxRounds: number
  readonly state: StateService
  readonly guard: SingleUseGuard | undefined
  readonly bus: NotificationBus
  readonly logger: Logger
  readonly logging: boolean
  /** Versions accepted per request (modern) and, when the handshake era is on, via initialize. */
  readonly versions: { modern: readonly string[]; legacy: readonly string[] }
  /** The 2025-11-25 handshake era on the same endpoint; undefined when turned off. */
  readonly handshake: HandshakeRuntime | undefined
  capabilities(): ServerCapabilities
  hasCompletions(): boolean
}

export function resolveCacheHints(hints: CacheHints | undefined): ServerCore['cache'] {
  const fallback: CacheHint = hints?.default ?? { ttlMs: 0, cacheScope: 'private' }
  for (const hint of Object.values(hints ?? {})) assertCacheHint(hint)
  return {
    discover: hints?.discover ?? fallback,
    toolsList: hints?.toolsList ?? fallback,
    promptsList: hints?.promptsList ?? fallback,
    resourcesList: hints?.resourcesList ?? fallback,
    resourceTemplatesList: hints?.resourceTemplatesList ?? fallback,
    resourcesRead: hints?.resourcesRead ?? fallback,
  }
}

export function assertCacheHint(hint: CacheHint | undefined): void {
  if (hint === undefined) return
  if (!Number.isSafeInteger(hint.ttlMs) || hint.ttlMs < 0)
    throw new RangeError('ttlMs must be an integer >= 0.')
  if (hint.cacheScope !== 'public' && hint.cacheScope !== 'private') {
    throw new TypeError('cacheScope must be "public" or "private".')
  }
}

export interface HandshakeRuntime {
  readonly sessions: SessionStore
  readonly events: EventStore
  readonly outbound: OutboundRequests
  /** How long a server-to-client request waits for its answer. */
  readonly requestTimeoutMs: number
  /** Requests running in this process, by session and request id, for notifications/cancelled. */
  readonly inflight: Map<string, AbortController>
}
