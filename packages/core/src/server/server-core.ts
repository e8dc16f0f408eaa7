/**
 * @module server-core
 * The internal state a server's method handlers read: registries, resolved options and services.
 * It is plain data behind an interface so each method lives in its own small module.
 */
import type { JsonObject } from '../protocol/jsonrpc/message.ts'
import type { ServerCapabilities } from '../protocol/modern/capabilities.ts'
import type { Implementation } from '../protocol/modern/request-meta.ts'
import type { SingleUseGuard } from '../security/replay/guard.ts'
import type { ResolvedCacheHints } from './cache-hints.ts'
import type { HandshakeSessions } from './handshake/sessions.ts'
import type { Logger } from './logger.ts'
import type { StateService } from './mrtr/state-service.ts'
import type { NotificationBus } from './notification-bus.ts'
import type { PromptRegistry } from './registry/prompts.ts'
import type { ResourceRegistry } from './registry/resources.ts'
import type { ToolRegistry } from './registry/tools.ts'
import type { TaskRunner } from './tasks/task-run.ts'
import type { Telemetry } from './telemetry/telemetry.ts'

export interface ServerCore {
  readonly info: Implementation
  /** `{ "io.modelcontextprotocol/serverInfo": info }`, built once and shared by every result. */
  readonly resultMeta: JsonObject | undefined
  /** `resultMeta` as JSON, encoded once. */
  readonly resultMetaJson: string | undefined
  /** The 2026-07-28 encodings of keyed results (`encoding-key.ts`), by key. */
  readonly encodings: WeakMap<object, string>
  readonly instructions: string | undefined
  readonly tools: ToolRegistry
  readonly resources: ResourceRegistry
  readonly prompts: PromptRegistry
  readonly cache: ResolvedCacheHints
  readonly pageSize: number
  readonly maxRounds: number
  readonly state: StateService
  /** The single-use guard, created on first use over the configured replay store. */
  readonly guard: SingleUseGuard
  /** Tasks over the configured task store, and the round limit their runs keep to. */
  readonly tasks: TaskRunner
  readonly bus: NotificationBus
  readonly logger: Logger
  /** Spans and metrics through the OpenTelemetry API, when the application installed it. */
  readonly telemetry: Telemetry
  readonly logging: boolean
  /** Lists show only what the caller's scopes permit (and are then private to it). */
  readonly listOnlyPermitted: boolean
  /** Versions accepted per request (2026-07-28) and, when the handshake era is on, by initialize. */
  readonly versions: { modern: readonly string[]; handshake: readonly string[] }
  /** The 2025-11-25 handshake era on the same endpoint; undefined when turned off. */
  readonly handshake: HandshakeSessions | undefined
  capabilities(): ServerCapabilities
  hasCompletions(): boolean
}
