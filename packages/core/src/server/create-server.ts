/**
 * @module create-server
 * `createServer(options)`: the registration API (tools, resources, templates, prompts) over the
 * internal `ServerCore`. Work that can be done once (schema conversion, mirror tables, result
 * `_meta`) happens here, at registration, never per request. What transports need is reached
 * through the server's door (`door.ts`), not through members of this class.
 */
import cluster from 'node:cluster'
import { assertKnownOptions, type OptionNames, positiveInteger } from '../option-checks.ts'
import type { JsonRpcRequest } from '../protocol/jsonrpc/message.ts'
import type { ServerCapabilities } from '../protocol/modern/capabilities.ts'
import type { Implementation } from '../protocol/modern/request-meta.ts'
import {
  HANDSHAKE_VERSIONS,
  MetaKey,
  MODERN_VERSIONS,
  TASKS_EXTENSION,
} from '../protocol/modern/vocabulary.ts'
import { createSingleUseGuard, type SingleUseGuard } from '../security/replay/guard.ts'
import { memoryReplayStore } from '../security/replay/memory-replay-store.ts'
import type { ReplayStore } from '../security/replay/replay-store.ts'
import { CACHE_HINT_NAMES, resolveCacheHints } from './cache-hints.ts'
import { clusterNotificationBus } from './cluster-bus.ts'
import { MessageConnection } from './connection.ts'
import { registerDoor, type ServerDoor } from './door.ts'
import type { Exchange } from './exchange.ts'
import { memoryEventStore } from './handshake/event-store.ts'
import { SESSION_METHODS } from './handshake/serve-handshake.ts'
import { memorySessionStore } from './handshake/session-store.ts'
import { HandshakeSessions } from './handshake/sessions.ts'
import { defaultLogger, type Logger } from './logger.ts'
import { orphanRuns } from './methods/tasks.ts'
import {
  REQUEST_STATE_OPTION_NAMES,
  type RequestStateOptions,
  type StateMetrics,
  StateService,
} from './mrtr/state-service.ts'
import { memoryNotificationBus } from './notification-bus.ts'
import { methodTable } from './pipeline/method-table.ts'
import { serveModern } from './pipeline/modern.ts'
import { checkReadiness } from './readiness.ts'
import { type AnyPromptHandler, PromptRegistry } from './registry/prompts.ts'
import { type AnyResourceHandler, type AnyTemplateHandler, ResourceRegistry } from './registry/resources.ts'
import { type AnyToolHandler, ToolRegistry } from './registry/tools.ts'
import type { ServerCore } from './server-core.ts'
import { warnEphemeralKey, warnSingleUseInMemory } from './serving-warnings.ts'
import { assertStores, type Stores } from './stores.ts'
import { TaskService, type TaskSettings } from './tasks/task-service.ts'
import { memoryTaskStore, type TaskStore } from './tasks/task-store.ts'
import { Telemetry } from './telemetry/telemetry.ts'
import type {
  CacheHints,
  PromptArgumentsInput,
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
  /** What the instances of this server share (default: all in this process's memory). */
  stores?: Stores
  /** The single-use guard: how long a claim holds without renewal (default 15 000 ms). */
  singleUse?: { leaseMs?: number }
  /** Tasks of tools that run as tasks (see `ToolConfig.task`). */
  tasks?: TaskOptions
  /** Advertise the (deprecated) logging capability and honour per-request `logLevel`. */
  logging?: boolean
  /**
   * List only the tools, prompts, resources and templates whose `scopes` the caller holds; those
   * lists are then marked `cacheScope: "private"`. Default false: lists show everything, and a
   * call without the scopes is refused with 403 either way.
   */
  listOnlyPermitted?: boolean
  /** Rounds a multi round-trip call may take before it is refused (default 16). */
  maxRounds?: number
  /**
   * Spans and metrics through the OpenTelemetry API when the application installed it and
   * registered an SDK (default true); false records nothing whatever is registered.
   */
  telemetry?: boolean
  /** Put `serverInfo` in every result's `_meta` (default true, as the spec recommends). */
  serverInfoInResults?: boolean
  /** pino or any logger of its shape; default: pino, JSON on stderr at warn. */
  logger?: Logger
  /**
   * The 2025-11-25 handshake era on the same endpoint (on by default): sessions, the GET stream,
   * resumable SSE, and real server-to-client requests for handlers that ask. `false` serves
   * 2026-07-28 only (GET and DELETE then answer 405).
   */
  handshake?: false | HandshakeOptions
}

export interface TaskOptions {
  /** How long a worker's hold on a running task lasts without renewal (default 15 000 ms). */
  leaseMs?: number
  /** How long a task is kept after its last change (default one hour); null: never dropped. */
  ttlMs?: number | null
  /** The polling interval clients are told (default 1000 ms). */
  pollIntervalMs?: number
  /**
   * The most tasks one principal may have kept at once, whatever their status (default 1000): a
   * task counts until it expires, `ttlMs` after its last change. A call beyond it is refused.
   */
  maxPerPrincipal?: number
  /**
   * The largest task record, in bytes of JSON, leaving out its result (default 65 536): the
   * call's arguments, the client's capabilities and identity, the questions and the answers. A
   * call or an answer that would make it larger is refused.
   */
  maxRecordBytes?: number
}

export interface HandshakeOptions {
  /** How long a server-to-client request waits (default 5 minutes). */
  requestTimeoutMs?: number
}

const OPTION_NAMES = {
  name: true,
  version: true,
  title: true,
  description: true,
  websiteUrl: true,
  instructions: true,
  cache: true,
  pageSize: true,
  requestState: true,
  stores: true,
  singleUse: true,
  tasks: true,
  logging: true,
  listOnlyPermitted: true,
  maxRounds: true,
  serverInfoInResults: true,
  telemetry: true,
  logger: true,
  handshake: true,
} as const satisfies OptionNames<ServerOptions>
const TASK_OPTION_NAMES = {
  leaseMs: true,
  ttlMs: true,
  pollIntervalMs: true,
  maxPerPrincipal: true,
  maxRecordBytes: true,
} as const satisfies OptionNames<TaskOptions>
const HANDSHAKE_OPTION_NAMES = { requestTimeoutMs: true } as const satisfies OptionNames<HandshakeOptions>
const SINGLE_USE_OPTION_NAMES = {
  leaseMs: true,
} as const satisfies OptionNames<NonNullable<ServerOptions['singleUse']>>
/** How long `close()` waits for stopped tasks to write how they ended. */
const TASK_STOP_WAIT_MS = 2000
/** Where options that used to live elsewhere now go, for the error that refuses them. */
const MOVED_OPTIONS: Readonly<Record<string, string>> = {
  replay: 'stores.replay (and singleUse.leaseMs)',
  bus: 'stores.bus',
}
const HANDSHAKE_MOVED: Readonly<Record<string, string>> = {
  sessions: 'stores.sessions',
  events: 'stores.events',
}

export class McpServer {
  readonly #core: ServerCore
  readonly #replay: ReplayStore | undefined
  readonly #taskStore: TaskStore
  /** Every store the server was given, closed once each by `close()`. */
  readonly #stores: Stores
  #serving = false

  constructor(options: ServerOptions) {
    assertOptions(options)
    const logger = options.logger ?? defaultLogger()
    this.#taskStore = options.stores?.tasks ?? memoryTaskStore()
    const core = buildCore(options, logger, this.#taskStore)
    this.#core = core
    this.#replay = options.stores?.replay
    this.#stores = { ...options.stores }
    registerDoor(this, this.#door())
  }

  /** Registers a tool; its name is taken until `removeTool`. Arguments are validated before `handler` runs. */
  tool<S extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<S, O>,
    handler: ToolHandler<S, O>,
  ): this {
    this.#core.tools.register(name, config, handler as AnyToolHandler)
    // Before serving, the warning waits for the first transport (`#opened`).
    if (config.singleUse && this.#replay === undefined && this.#serving)
      warnSingleUseInMemory(this.#core.logger, name)
    this.#changed('tools/list_changed')
    return this
  }

  removeTool(name: string): boolean {
    const removed = this.#core.tools.remove(name)
    if (removed) this.#core.bus.publish({ type: 'tools/list_changed' })
    return removed
  }

  /** Registers a static resource at `uri`. */
  resource(uri: string, config: ResourceConfig, handler: ResourceHandler): this {
    this.#core.resources.register(uri, config, handler as AnyResourceHandler)
    this.#changed('resources/list_changed')
    return this
  }

  /** Registers an RFC 6570 resource template; the handler may return undefined for an unknown URI. */
  resourceTemplate(uriTemplate: string, config: TemplateConfig, handler: TemplateHandler): this {
    this.#core.resources.registerTemplate(uriTemplate, config, handler as AnyTemplateHandler)
    this.#changed('resources/list_changed')
    return this
  }

  /** Removes a resource or a template, by its URI or its template string. */
  removeResource(uriOrTemplate: string): boolean {
    const removed = this.#core.resources.remove(uriOrTemplate)
    if (removed) this.#core.bus.publish({ type: 'resources/list_changed' })
    return removed
  }

  /** Registers a prompt; its arguments are typed from `args` (a zod object, or a list). */
  prompt<const A extends PromptArgumentsInput | undefined = undefined>(
    name: string,
    config: PromptConfig<A>,
    handler: PromptHandler<A>,
  ): this {
    this.#core.prompts.register(name, config, handler as AnyPromptHandler)
    this.#changed('prompts/list_changed')
    return this
  }

  removePrompt(name: string): boolean {
    const removed = this.#core.prompts.remove(name)
    if (removed) this.#core.bus.publish({ type: 'prompts/list_changed' })
    return removed
  }

  /** Tells listen streams subscribed to `uri` (or a parent of it) that it changed. */
  notifyResourceUpdated(uri: string): void {
    this.#core.bus.publish({ type: 'resources/updated', uri })
  }

  /** Counts of states opened per key id and refused per reason: tells when an old key can go. */
  stateMetrics(): StateMetrics {
    return this.#core.state.snapshot()
  }

  /**
   * Stops the tasks this process runs (each ends failed, saying the server stopped it), ends
   * listen and session streams (each gets its closing message), then closes every store.
   */
  async close(): Promise<void> {
    const core = this.#core
    await core.tasks.service.stopAll('the server is shutting down', TASK_STOP_WAIT_MS)
    core.bus.publish({ type: 'shutdown' })
    // Every port given, used or not (a bundle releases its connection after the last one), and
    // the in-memory defaults; each once.
    const given = Object.values(this.#stores).filter((store) => store !== undefined)
    core.tasks.service.close()
    core.telemetry.close()
    const defaults = [core.handshake?.sessions, core.handshake?.events, this.#taskStore, core.bus].filter(
      (store) => store !== undefined && !given.includes(store),
    )
    for (const store of new Set([...given, ...defaults])) await store?.close()
  }

  /** A transport starts serving: the first one to do so warns about what this process alone keeps. */
  #opened(): void {
    if (this.#serving) return
    this.#serving = true
    const { logger, state, tools } = this.#core
    if (state.ephemeral) warnEphemeralKey(logger)
    if (this.#replay === undefined)
      for (const name of tools.singleUseNames()) warnSingleUseInMemory(logger, name)
  }

  // Registration before anyone listens needs no event; a change while serving does.
  #changed(type: 'tools/list_changed' | 'prompts/list_changed' | 'resources/list_changed'): void {
    if (this.#serving) this.#core.bus.publish({ type })
  }

  #door(): ServerDoor {
    const core = this.#core
    return {
      logger: core.logger,
      modernVersions: core.versions.modern,
      supportedVersions: [...core.versions.modern, ...core.versions.handshake],
      handshake: core.handshake,
      opened: () => this.#opened(),
      modern: (request: JsonRpcRequest, exchange: Exchange) => serveModern(core, request, exchange),
      connect: (write, auth) => new MessageConnection(core, write, auth),
      endStreams: () => core.bus.publish({ type: 'shutdown' }),
      close: () => this.close(),
      ready: () => checkReadiness(this.#stores, core.state.keysLoaded),
      processLocal: () => {
        const local: string[] = []
        if (core.state.ephemeral) local.push('requestState.keys')
        if (this.#stores.replay === undefined && core.tools.hasSingleUse()) local.push('stores.replay')
        if (this.#stores.tasks === undefined && core.tools.hasTasks()) local.push('stores.tasks')
        if (core.handshake && this.#stores.sessions === undefined) local.push('stores.sessions')
        if (core.handshake && this.#stores.events === undefined) local.push('stores.events')
        if (this.#stores.bus === undefined && !cluster.isWorker) local.push('stores.bus')
        return local
      },
    }
  }
}

export function createServer(options: ServerOptions): McpServer {
  return new McpServer(options)
}

function buildCore(options: ServerOptions, logger: Logger, taskStore: TaskStore): ServerCore {
  const info: Implementation = { name: options.name, version: options.version }
  if (options.title !== undefined) info.title = options.title
  if (options.description !== undefined) info.description = options.description
  if (options.websiteUrl !== undefined) info.websiteUrl = options.websiteUrl
  const stores = options.stores ?? {}
  const tools = new ToolRegistry()
  const resources = new ResourceRegistry()
  const prompts = new PromptRegistry()
  const resultMeta = options.serverInfoInResults === false ? undefined : { [MetaKey.serverInfo]: info }
  let guard: SingleUseGuard | undefined
  const leaseMs = options.singleUse?.leaseMs
  const bus = stores.bus ?? (cluster.isWorker ? clusterNotificationBus() : memoryNotificationBus())
  const maxRounds = positiveInteger(options.maxRounds ?? 16, 'maxRounds')
  // Telemetry records only what is registered here (or a fixed value): never a name as a caller sent it.
  const telemetry = new Telemetry(options.version, options.telemetry !== false, {
    methods: new Set([...Object.keys(methodTable), ...SESSION_METHODS]),
    tool: (name) => tools.get(name) !== undefined,
    prompt: (name) => prompts.get(name) !== undefined,
    resource: (uri) => resources.getStatic(uri) !== undefined || !resources.matching(uri).next().done,
  })
  const knownCapabilities: ServerCapabilities[] = []
  const core: { -readonly [K in keyof ServerCore]: ServerCore[K] } = {
    info,
    resultMeta,
    resultMetaJson: resultMeta && JSON.stringify(resultMeta),
    encodings: new WeakMap(),
    instructions: options.instructions,
    tools,
    resources,
    prompts,
    cache: resolveCacheHints(options.cache),
    pageSize: positiveInteger(options.pageSize ?? 100, 'pageSize'),
    maxRounds,
    state: new StateService(options.requestState, options.name, logger, telemetry),
    get guard() {
      guard ??= createSingleUseGuard({
        store: stores.replay ?? memoryReplayStore(),
        leaseMs,
        onEvent: (event) => {
          logger.info({ event: `single_use_${event.type}`, detail: event.detail }, 'single-use guard')
          if (event.type === 'lease_lost' || event.type === 'store_error') telemetry.singleUse(event.type)
        },
        onStoreCall: (operation, ms, ok) => telemetry.storeCall('replay', operation, ms, ok),
      })
      return guard
    },
    tasks: {
      service: new TaskService(taskStore, bus, logger, taskSettings(options.tasks), telemetry),
      maxRounds,
    },
    // A worker of node:cluster reaches its siblings through the primary's relay by default.
    bus,
    logger,
    telemetry,
    logging: options.logging === true,
    listOnlyPermitted: options.listOnlyPermitted === true,
    versions: { modern: MODERN_VERSIONS, handshake: options.handshake === false ? [] : HANDSHAKE_VERSIONS },
    handshake: undefined,
    capabilities: () => capabilitiesOf(core, knownCapabilities),
    hasCompletions: () => hasCompletions(prompts, resources),
  }
  if (leaseMs !== undefined) positiveInteger(leaseMs, 'singleUse.leaseMs')
  core.tasks.service.rerunOrphansWith(orphanRuns(core))
  if (options.handshake !== false) {
    const sessions = stores.sessions ?? memorySessionStore()
    if (sessions.count !== undefined) telemetry.countSessions(() => sessions.count!())
    core.handshake = new HandshakeSessions(core, {
      sessions,
      events: stores.events ?? memoryEventStore(),
      requestTimeoutMs: positiveInteger(
        options.handshake?.requestTimeoutMs ?? 5 * 60_000,
        'handshake.requestTimeoutMs',
      ),
    })
  }
  return core
}

function taskSettings(options: TaskOptions | undefined): TaskSettings {
  assertKnownOptions(options, TASK_OPTION_NAMES, 'createServer', { path: 'tasks' })
  const leaseMs = positiveInteger(options?.leaseMs ?? 15_000, 'tasks.leaseMs')
  if (leaseMs < 30) throw new RangeError('tasks.leaseMs must be at least 30.')
  const maxRecordBytes = positiveInteger(options?.maxRecordBytes ?? 65_536, 'tasks.maxRecordBytes')
  if (maxRecordBytes < 1024) throw new RangeError('tasks.maxRecordBytes must be at least 1024.')
  const ttl = options?.ttlMs === undefined ? 60 * 60_000 : options.ttlMs
  return {
    leaseMs,
    ttlMs: ttl === null ? null : positiveInteger(ttl, 'tasks.ttlMs'),
    pollIntervalMs: positiveInteger(options?.pollIntervalMs ?? 1000, 'tasks.pollIntervalMs'),
    storeTimeoutMs: Math.min(5000, Math.floor(leaseMs / 3)),
    maxPerPrincipal: positiveInteger(options?.maxPerPrincipal ?? 1000, 'tasks.maxPerPrincipal'),
    maxRecordBytes,
  }
}

/**
 * The capabilities follow from which kinds of things are registered: one frozen object per
 * combination, kept in `known`, so a result that carries them (`server/discover`) is the same
 * object until a registration changes them and is encoded once per combination.
 */
function capabilitiesOf(core: ServerCore, known: ServerCapabilities[]): ServerCapabilities {
  const tools = core.tools.size > 0
  const resources = core.resources.size > 0
  const prompts = core.prompts.size > 0
  const completions = core.hasCompletions()
  const tasks = core.tools.hasTasks()
  const index =
    Number(tools) |
    (Number(resources) << 1) |
    (Number(prompts) << 2) |
    (Number(completions) << 3) |
    (Number(core.logging) << 4) |
    (Number(tasks) << 5)
  const cached = known[index]
  if (cached !== undefined) return cached
  const caps: ServerCapabilities = {}
  if (tools) caps.tools = { listChanged: true }
  if (resources) caps.resources = { subscribe: true, listChanged: true }
  if (prompts) caps.prompts = { listChanged: true }
  if (completions) caps.completions = {}
  if (core.logging) caps.logging = {}
  if (tasks) caps.extensions = { [TASKS_EXTENSION]: {} }
  known[index] = deepFreeze(caps)
  return caps
}

function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) if (typeof child === 'object' && child !== null) deepFreeze(child)
  return Object.freeze(value)
}

function hasCompletions(prompts: PromptRegistry, resources: ResourceRegistry): boolean {
  return prompts.size > 0 || resources.listTemplates().length > 0
}

function assertOptions(options: ServerOptions): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('createServer needs options.')
  assertKnownOptions(options, OPTION_NAMES, 'createServer', { moved: MOVED_OPTIONS })
  if (typeof options.name !== 'string' || options.name === '')
    throw new TypeError('createServer needs a name.')
  if (typeof options.version !== 'string' || options.version === '')
    throw new TypeError('createServer needs a version.')
  assertStores(options.stores)
  assertKnownOptions(options.cache, CACHE_HINT_NAMES, 'createServer', { path: 'cache' })
  assertKnownOptions(options.requestState, REQUEST_STATE_OPTION_NAMES, 'createServer', {
    path: 'requestState',
  })
  assertKnownOptions(options.singleUse, SINGLE_USE_OPTION_NAMES, 'createServer', { path: 'singleUse' })
  if (options.handshake !== false) {
    assertKnownOptions(options.handshake, HANDSHAKE_OPTION_NAMES, 'createServer', {
      path: 'handshake',
      moved: HANDSHAKE_MOVED,
    })
  }
}
