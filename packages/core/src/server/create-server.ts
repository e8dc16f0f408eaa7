/**
 * @module create-server
 * `createServer(options)`: the registration API (tools, resources, templates, prompts) over the
 * internal `ServerCore`. Work that can be done once (schema conversion, mirror tables, result
 * `_meta`) happens here, at registration, never per request.
 */
import type { JsonObject, JsonRpcRequest } from '../protocol/jsonrpc/message.ts'
import type { ServerCapabilities } from '../protocol/modern/capabilities.ts'
import type { Implementation } from '../protocol/modern/envelope.ts'
import { LEGACY_VERSIONS, MetaKey, MODERN_VERSIONS } from '../protocol/modern/vocabulary.ts'
import {
  createSingleUseGuard,
  memoryReplayStore,
  type ReplayStore,
  type SingleUseGuard,
} from '../security/replay/index.ts'
import type { Exchange } from './exchange.ts'
import { type EventStore, memoryEventStore } from './legacy/event-store.ts'
import { inflightKey, OutboundRequests } from './legacy/outbound.ts'
import { memorySessionStore, type SessionStore } from './legacy/session-store.ts'
import { createStderrLogger, type Logger } from './logger.ts'
import { type RequestStateOptions, type StateMetrics, StateService } from './mrtr/state-service.ts'
import { createMemoryBus, type NotificationBus } from './notification-bus.ts'
import { serveModern } from './pipeline/modern.ts'
import type { Reply } from './pipeline/reply.ts'
import { PromptRegistry } from './registry/prompts.ts'
import { ResourceRegistry } from './registry/resources.ts'
import { ToolRegistry } from './registry/tools.ts'
import { resolveCacheHints, type ServerCore } from './server-core.ts'
import type {
  CacheHints,
  PromptConfig,
  PromptHandler,
  ResourceConfig,
  ResourceHandler,
  SchemaInput,
  TemplateConfig,
  TemplateHandler,
  ToolConfig,
  ToolHandler,
} from './types.ts'

export interface ServerOptions {
  name: string
  version: string
  title?: string
  description?: string
  websiteUrl?: string
  /** Text for the model about how to use this server (returned by `server/discover`). */
  instructions?: string
  /** Cache hints for discover, lists and reads; a resource's own hint wins over these. */
  cache?: CacheHints
  /** Items per page of the list methods (default 100). */
  pageSize?: number
  /** The requestState codec and binding (see the security guide). */
  requestState?: RequestStateOptions
  /** The single-use record store shared by every worker (default: in memory, one process). */
  replay?: { store: ReplayStore; leaseMs?: number }
  /** Advertise the (deprecated) logging capability and honour per-request `logLevel`. */
  logging?: boolean
  /** Rounds a multi round-trip call may take before it is refused (default 16). */
  maxRounds?: number
  /** Put `serverInfo` in every result's `_meta` (default true, as the spec recommends). */
  serverInfoInResults?: boolean
  /** pino-compatible logger; defaults to JSON on stderr at warn. */
  logger?: Logger
  /** Carries change notifications to listen streams; default: in this process only. */
  bus?: NotificationBus
  /**
   * The 2025-11-25 handshake era on the same endpoint (on by default): sessions, the GET stream,
   * resumable SSE, and real server-to-client requests for handlers that ask. `false` serves
   * 2026-07-28 only (GET and DELETE then answer 405).
   */
  handshake?: false | HandshakeOptions
}

export interface HandshakeOptions {
  /** Where sessions live (default: in memory; Redis for several instances). */
  sessions?: SessionStore
  /** Where resumable stream events live (default: in memory; Redis for several instances). */
  events?: EventStore
  /** How long a server-to-client request waits (default 5 minutes). */
  requestTimeoutMs?: number
}

export class McpServer {
  /** @internal read by transports and method implementations. */
  readonly core: ServerCore
  private guardStore: ReplayStore | undefined

  constructor(options: ServerOptions) {
    assertOptions(options)
    const logger = options.logger ?? createStderrLogger()
    const info: Implementation = { name: options.name, version: options.version }
    if (options.title !== undefined) info.title = options.title
    if (options.description !== undefined) info.description = options.description
    if (options.websiteUrl !== undefined) info.websiteUrl = options.websiteUrl
    const tools = new ToolRegistry()
    const resources = new ResourceRegistry()
    const prompts = new PromptRegistry()
    const state = new StateService(options.requestState, options.name, logger)
    if (state.ephemeral) {
      logger.warn(
        { event: 'request_state_ephemeral_key' },
        'no requestState keys configured: using an ephemeral key (states die with this process; several workers must share keys)',
      )
    }
    this.guardStore = options.replay?.store
    let guard: SingleUseGuard | undefined
    const self = this
    this.core = {
      info,
      resultMeta: options.serverInfoInResults === false ? undefined : { [MetaKey.serverInfo]: info },
      instructions: options.instructions,
      tools,
      resources,
      prompts,
      cache: resolveCacheHints(options.cache),
      pageSize: positiveInteger(options.pageSize ?? 100, 'pageSize'),
      maxRounds: positiveInteger(options.maxRounds ?? 16, 'maxRounds'),
      state,
      get guard() {
        guard ??= self.makeGuard(options.replay?.leaseMs, logger)
        return guard
      },
      bus: options.bus ?? createMemoryBus(),
      logger,
      logging: options.logging === true,
      versions: { modern: MODERN_VERSIONS, legacy: options.handshake === false ? [] : LEGACY_VERSIONS },
      handshake: handshakeRuntime(options.handshake),
      capabilities: () => capabilitiesOf(this.core),
      hasCompletions: () => hasCompletions(prompts, resources),
    }
    this.followSessionTraffic()
  }

  /**
   * A handshake-era client may post its answer or its cancel to any instance; the one holding
   * the waiting request picks it up from the bus.
   */
  private followSessionTraffic(): void {
    const runtime = this.core.handshake
    if (!runtime) return
    this.core.bus.subscribe((event) => {
      if (event.type === 'client-response') runtime.outbound.deliver(event.sessionId, event.response)
      if (event.type === 'client-cancel')
        runtime.inflight.get(inflightKey(event.sessionId, event.requestId))?.abort()
    })
  }

  /** Registers (or replaces) a tool. Arguments are validated before `handler` runs. */
  tool<S extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<S>,
    handler: ToolHandler<S>,
  ): this {
    const replacing = this.core.tools.get(name) !== undefined
    this.core.tools.register(name, config, handler as ToolHandler<SchemaInput | undefined>)
    if (config.singleUse && this.guardStore === undefined) {
      this.core.logger.warn(
        { event: 'single_use_memory_store', tool: name },
        'single-use tool without replay.store: records are kept in this process only',
      )
    }
    this.changed('tools/list_changed', replacing)
    return this
  }

  removeTool(name: string): boolean {
    const removed = this.core.tools.remove(name)
    if (removed) this.core.bus.publish({ type: 'tools/list_changed' })
    return removed
  }

  /** Registers a static resource at `uri`. */
  resource(uri: string, config: ResourceConfig, handler: ResourceHandler): this {
    this.core.resources.register(uri, config, handler)
    this.changed('resources/list_changed', true)
    return this
  }

  /** Registers an RFC 6570 resource template; the handler may return undefined for an unknown URI. */
  resourceTemplate(uriTemplate: string, config: TemplateConfig, handler: TemplateHandler): this {
    this.core.resources.registerTemplate(uriTemplate, config, handler)
    this.changed('resources/list_changed', true)
    return this
  }

  removeResource(uriOrTemplate: string): boolean {
    const removed = this.core.resources.remove(uriOrTemplate)
    if (removed) this.core.bus.publish({ type: 'resources/list_changed' })
    return removed
  }

  prompt(name: string, config: PromptConfig, handler: PromptHandler): this {
    const replacing = this.core.prompts.get(name) !== undefined
    this.core.prompts.register(name, config, handler)
    this.changed('prompts/list_changed', replacing)
    return this
  }

  removePrompt(name: string): boolean {
    const removed = this.core.prompts.remove(name)
    if (removed) this.core.bus.publish({ type: 'prompts/list_changed' })
    return removed
  }

  /** Tells listen streams subscribed to `uri` (or a parent of it) that it changed. */
  notifyResourceUpdated(uri: string): void {
    this.core.bus.publish({ type: 'resources/updated', uri })
  }

  /** Counts of states opened per key id and refused per reason: tells when an old key can go. */
  stateMetrics(): StateMetrics {
    return this.core.state.snapshot()
  }

  /** @internal transports call this for every 2026-07-28 request. */
  handleModern(request: JsonRpcRequest, exchange: Exchange): Promise<Reply> {
    return serveModern(this.core, request, exchange)
  }

  /** Ends listen streams (each gets its closing result) and closes the record store. */
  async close(): Promise<void> {
    this.core.bus.publish({ type: 'shutdown' })
    await this.guardStore?.close()
    await this.core.handshake?.sessions.close()
    await this.core.handshake?.events.close()
    await this.core.bus.close?.()
  }

  private changed(
    type: 'tools/list_changed' | 'prompts/list_changed' | 'resources/list_changed',
    always: boolean,
  ): void {
    // Registration before anyone listens needs no event; a change while serving does.
    if (always || this.serving) this.core.bus.publish({ type })
  }

  /** @internal set by transports once they start serving. */
  serving = false

  private makeGuard(leaseMs: number | undefined, logger: Logger): SingleUseGuard {
    this.guardStore ??= memoryReplayStore()
    return createSingleUseGuard({
      store: this.guardStore,
      leaseMs,
      onEvent: (event) =>
        logger.info({ event: `single_use_${event.type}`, detail: event.detail }, 'single-use guard'),
    })
  }
}

export function createServer(options: ServerOptions): McpServer {
  return new McpServer(options)
}

function handshakeRuntime(options: false | HandshakeOptions | undefined): ServerCore['handshake'] {
  if (options === false) return undefined
  return {
    sessions: options?.sessions ?? memorySessionStore(),
    events: options?.events ?? memoryEventStore(),
    outbound: new OutboundRequests(),
    requestTimeoutMs: options?.requestTimeoutMs ?? 5 * 60_000,
    inflight: new Map(),
  }
}

function capabilitiesOf(core: ServerCore): ServerCapabilities {
  const caps: ServerCapabilities = {}
  if (core.tools.size > 0) caps.tools = { listChanged: true }
  if (core.resources.size > 0) caps.resources = { subscribe: true, listChanged: true }
  if (core.prompts.size > 0) caps.prompts = { listChanged: true }
  if (core.hasCompletions()) caps.completions = {}
  if (core.logging) caps.logging = {}
  return caps
}

function hasCompletions(prompts: PromptRegistry, resources: ResourceRegistry): boolean {
  return prompts.size > 0 || resources.listTemplates().length > 0
}

function assertOptions(options: ServerOptions): void {
  if (typeof options?.name !== 'string' || options.name === '')
    throw new TypeError('createServer needs a name.')
  if (typeof options.version !== 'string' || options.version === '')
    throw new TypeError('createServer needs a version.')
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer.`)
  return value
}

export type { JsonObject }
