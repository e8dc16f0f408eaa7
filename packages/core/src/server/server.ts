/**
 * @module server
 * The server every platform builds (`createServerOn`): the registration API (tools, resources,
 * templates, prompts) over the server's catalogue and services. Work that can be done once (schema
 * conversion, mirror tables, result `_meta`) happens here, at registration, never per request.
 * What transports need is reached through the server's door (`door.ts`), not through members of
 * this class. What the options leave out comes from the platform (`platform.ts`): the entry point
 * chose it, so nothing here depends on the runtime.
 */
import { logSubscriber } from '../observation/log-subscriber.ts'
import type { Logger } from '../observation/logger.ts'
import { Observer, type Subscriber } from '../observation/observer.ts'
import type { Known, Telemetry } from '../observation/telemetry/telemetry.ts'
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
import { CACHE_HINT_NAMES, resolveCacheHints } from './cache-hints.ts'
import type { Catalogue } from './catalogue.ts'
import { MessageConnection } from './connection.ts'
import type { Era } from './context.ts'
import { registerDoor, type ServerDoor } from './door.ts'
import type { Exchange } from './exchange.ts'
import type { Extension } from './extensions/extension.ts'
import { type Advertised, InstalledExtensions } from './extensions/installed-extensions.ts'
import { memoryEventStore } from './handshake/event-store.ts'
import { SESSION_METHODS } from './handshake/serve-handshake.ts'
import { memorySessionStore } from './handshake/session-store.ts'
import { HandshakeSessions } from './handshake/sessions.ts'
import { type CallLimits, DEFAULT_LIMITS, resolveLimits } from './limits/call-limits.ts'
import type { McpServer } from './mcp-server.ts'
import type { ServerParts } from './methods/method-call.ts'
import { orphanRuns, type TasksHost } from './methods/tasks.ts'
import {
  REQUEST_STATE_OPTION_NAMES,
  type RequestStateOptions,
  type StateMetrics,
  StateService,
} from './mrtr/state-service.ts'
import type { NotificationBus } from './notification-bus.ts'
import { CORE_METHOD_NAMES, MethodTable } from './pipeline/method-table.ts'
import { type ModernServer, serveModern } from './pipeline/modern.ts'
import { ResultEncoder } from './pipeline/result-encoder.ts'
import type { Platform } from './platform.ts'
import { memoryRateLimitStore } from './rate-limits/memory-rate-limit-store.ts'
import { RateLimiter, type RateLimitOptions } from './rate-limits/rate-limits.ts'
import { checkReadiness } from './readiness.ts'
import { type AnyPromptHandler, CORE_PROMPT_OPTIONS, PromptRegistry } from './registry/prompts.ts'
import {
  type AnyResourceHandler,
  type AnyTemplateHandler,
  CORE_RESOURCE_OPTIONS,
  ResourceRegistry,
} from './registry/resources.ts'
import { type AnyToolHandler, CORE_TOOL_OPTIONS, ToolRegistry } from './registry/tools.ts'
import type { Services } from './services.ts'
import { warnEphemeralKey, warnSingleUseInMemory } from './serving-warnings.ts'
import { assertStores, type Stores } from './stores.ts'
import { TaskService, type TaskSettings } from './tasks/task-service.ts'
import { memoryTaskStore, type TaskStore } from './tasks/task-store.ts'
import { tasksExtension } from './tasks/tasks-extension.ts'
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

/**
 * What `createServer` is given: the server's name and version (its `serverInfo`), what it tells
 * the model, how its requestStates are sealed, what its instances share (`stores`), and how it
 * logs and traces. Everything but `name` and `version` has a default.
 */
export interface ServerOptions {
  /** The name in `serverInfo`, and what requestStates are bound to unless `requestState.identity` says otherwise. */
  name: string
  /** The version in `serverInfo`. */
  version: string
  /** A name for people to read, in `serverInfo`. */
  title?: string
  /** What the server is for, in `serverInfo`. */
  description?: string
  /** The server's web site, in `serverInfo`. */
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
  /**
   * Extensions of the protocol beyond those built in (tasks is always installed): what each
   * advertises, the methods it adds, the options it adds to definitions. See `Extension` in
   * `@tessera/core/extension`.
   */
  extensions?: readonly Extension[]
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
   * What one tool call may take and give, for every tool (a tool's own `limits` override these
   * one by one): the shape of its arguments, the size of its result, its deadline (see `CallLimits`).
   */
  limits?: CallLimits
  /**
   * Rate limits as token buckets, per caller, per caller and method, and for the whole server
   * (see `RateLimitOptions`; a tool's own is `ToolConfig.rateLimit`), kept in `stores.rateLimits`.
   */
  rateLimits?: RateLimitOptions
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

/**
 * How a server keeps the tasks of tools that run as tasks (`ServerOptions.tasks`): the lease of
 * the worker running one, how long one is kept, how often clients poll, and the bounds on each
 * principal's tasks and on each record.
 */
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

/** Settings of the 2025-11-25 handshake era, served on the same endpoint (`ServerOptions.handshake`). */
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
  extensions: true,
  logging: true,
  listOnlyPermitted: true,
  maxRounds: true,
  limits: true,
  rateLimits: true,
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
/** The parts of one server, built once from its options. */
interface BuiltServer extends ModernServer {
  /** The 2025-11-25 handshake era on the same endpoint; undefined when turned off. */
  readonly handshake: HandshakeSessions | undefined
  /** The OpenTelemetry subscriber, which holds instruments to release on close; none on the web. */
  readonly telemetry: Telemetry | undefined
}

class Server implements McpServer {
  readonly #catalogue: Catalogue
  readonly #services: Services
  readonly #handshake: HandshakeSessions | undefined
  readonly #telemetry: Telemetry | undefined
  readonly #taskStore: TaskStore
  /** Every store the server was given, closed once each by `close()`. */
  readonly #stores: Stores
  /** Whether the bus the platform gave reaches other processes (a node:cluster worker's does). */
  readonly #busShared: boolean
  #serving = false

  constructor(options: ServerOptions, platform: Platform) {
    assertOptions(options)
    const logger = options.logger ?? platform.defaultLogger()
    this.#taskStore = options.stores?.tasks ?? memoryTaskStore()
    const given = options.stores?.bus
    const bus = given === undefined ? platform.defaultBus() : { bus: given, shared: true }
    this.#busShared = bus.shared
    const parts = buildParts(
      options,
      { logger, bus: bus.bus, subscribers: platform.subscribers, telemetry: platform.telemetry },
      this.#taskStore,
    )
    this.#catalogue = parts.catalogue
    this.#services = parts.services
    this.#handshake = parts.handshake
    this.#telemetry = parts.telemetry
    this.#stores = { ...options.stores }
    registerDoor(this, this.#door(parts))
    for (const extension of this.#catalogue.extensions.all) extension.setup?.(this)
  }

  tool<S extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<S, O>,
    handler: ToolHandler<S, O>,
  ): this {
    this.#catalogue.tools.register(name, config, handler as AnyToolHandler)
    // Before serving, the warning waits for the first transport (`#opened`).
    if (config.singleUse && this.#stores.replay === undefined && this.#serving)
      warnSingleUseInMemory(this.#services.logger, name)
    this.#changed('tools/list_changed')
    return this
  }

  removeTool(name: string): boolean {
    const removed = this.#catalogue.tools.remove(name)
    if (removed) this.#services.bus.publish({ type: 'tools/list_changed' })
    return removed
  }

  resource(uri: string, config: ResourceConfig, handler: ResourceHandler): this {
    this.#catalogue.resources.register(uri, config, handler as AnyResourceHandler)
    this.#changed('resources/list_changed')
    return this
  }

  resourceTemplate(uriTemplate: string, config: TemplateConfig, handler: TemplateHandler): this {
    this.#catalogue.resources.registerTemplate(uriTemplate, config, handler as AnyTemplateHandler)
    this.#changed('resources/list_changed')
    return this
  }

  removeResource(uriOrTemplate: string): boolean {
    const removed = this.#catalogue.resources.remove(uriOrTemplate)
    if (removed) this.#services.bus.publish({ type: 'resources/list_changed' })
    return removed
  }

  prompt<const A extends PromptArgumentsInput | undefined = undefined>(
    name: string,
    config: PromptConfig<A>,
    handler: PromptHandler<A>,
  ): this {
    this.#catalogue.prompts.register(name, config, handler as AnyPromptHandler)
    this.#changed('prompts/list_changed')
    return this
  }

  removePrompt(name: string): boolean {
    const removed = this.#catalogue.prompts.remove(name)
    if (removed) this.#services.bus.publish({ type: 'prompts/list_changed' })
    return removed
  }

  notifyResourceUpdated(uri: string): void {
    this.#services.bus.publish({ type: 'resources/updated', uri })
  }

  stateMetrics(): StateMetrics {
    return this.#services.state.snapshot()
  }

  async close(): Promise<void> {
    const services = this.#services
    await services.tasks.service.stopAll('the server is shutting down', TASK_STOP_WAIT_MS)
    services.bus.publish({ type: 'shutdown' })
    // Every port given, used or not (a bundle releases its connection after the last one), and
    // the in-memory defaults; each once.
    const given = Object.values(this.#stores).filter((store) => store !== undefined)
    services.tasks.service.close()
    this.#telemetry?.close()
    const handshake = this.#handshake
    const defaults = [handshake?.sessions, handshake?.events, this.#taskStore, services.bus].filter(
      (store) => store !== undefined && !given.includes(store),
    )
    for (const store of new Set([...given, ...defaults])) await store?.close()
  }

  /** A transport starts serving: the first one to do so warns about what this process alone keeps. */
  #opened(): void {
    if (this.#serving) return
    this.#serving = true
    const { logger, state } = this.#services
    if (state.ephemeral) warnEphemeralKey(logger)
    if (this.#stores.replay === undefined)
      for (const name of this.#catalogue.tools.singleUseNames()) warnSingleUseInMemory(logger, name)
  }

  // Registration before anyone listens needs no event; a change while serving does.
  #changed(type: 'tools/list_changed' | 'prompts/list_changed' | 'resources/list_changed'): void {
    if (this.#serving) this.#services.bus.publish({ type })
  }

  #door(parts: BuiltServer): ServerDoor {
    const { catalogue, services, handshake } = parts
    const door: ServerDoor = {
      logger: services.logger,
      observer: services.observer,
      modernVersions: catalogue.versions.modern,
      supportedVersions: [...catalogue.versions.modern, ...catalogue.versions.handshake],
      handshake,
      opened: () => this.#opened(),
      modern: (request: JsonRpcRequest, exchange: Exchange) => serveModern(parts, request, exchange),
      connect: (write, auth) => new MessageConnection(door, write, auth),
      endStreams: () => services.bus.publish({ type: 'shutdown' }),
      published: async () => services.bus.settled?.(),
      close: () => this.close(),
      ready: () => checkReadiness(this.#stores, services.state.keysLoaded),
      processLocal: () => this.#processLocal(),
    }
    return door
  }

  #processLocal(): string[] {
    const stores = this.#stores
    const tools = this.#catalogue.tools
    const local: string[] = []
    if (this.#services.state.ephemeral) local.push('requestState.keys')
    if (stores.replay === undefined && tools.hasSingleUse()) local.push('stores.replay')
    if (stores.tasks === undefined && this.#catalogue.extensions.tools.usage(TASKS_EXTENSION) > 0)
      local.push('stores.tasks')
    if (this.#handshake && stores.sessions === undefined) local.push('stores.sessions')
    if (this.#handshake && stores.events === undefined) local.push('stores.events')
    if (!this.#busShared) local.push('stores.bus')
    return local
  }
}

/** Creates a server from its options, taking what they leave out from `platform`. */
export function createServerOn(platform: Platform, options: ServerOptions): McpServer {
  return new Server(options, platform)
}

/** What a server takes from its platform, resolved against its options. */
interface Defaults {
  readonly logger: Logger
  readonly bus: NotificationBus
  readonly subscribers: readonly Subscriber[]
  readonly telemetry: Platform['telemetry']
}

function buildParts(options: ServerOptions, defaults: Defaults, taskStore: TaskStore): BuiltServer {
  const { logger, bus } = defaults
  const stores = options.stores ?? {}
  let host: TasksHost | undefined
  const catalogue = buildCatalogue(
    options,
    tasksExtension(() => host!),
  )
  const methods = new MethodTable(catalogue.extensions.all)
  const maxRounds = positiveInteger(options.maxRounds ?? 16, 'maxRounds')
  const telemetry = defaults.telemetry(
    options.version,
    options.telemetry !== false,
    knownNames(catalogue, methods),
  )
  const subscribers = [logSubscriber(logger), ...(telemetry ? [telemetry] : []), ...defaults.subscribers]
  const observer = new Observer(subscribers)
  const leaseMs = options.singleUse?.leaseMs
  if (leaseMs !== undefined) positiveInteger(leaseMs, 'singleUse.leaseMs')
  let guard: SingleUseGuard | undefined
  const services: Services = {
    state: new StateService(options.requestState, options.name, observer),
    get guard() {
      guard ??= createSingleUseGuard({
        store: stores.replay ?? memoryReplayStore(),
        leaseMs,
        onEvent: ({ type, detail }) => {
          if (observer.wants('guard')) observer.announce({ step: 'guard', type, detail })
        },
        onStoreCall: (operation, ms, ok) => {
          if (observer.wants('store-call'))
            observer.announce({ step: 'store-call', store: 'replay', operation, ms, ok })
        },
      })
      return guard
    },
    tasks: {
      service: new TaskService(taskStore, bus, logger, taskSettings(options.tasks), observer),
      maxRounds,
    },
    bus,
    logger,
    observer,
    maxRounds,
    limiter: new RateLimiter(options.rateLimits, stores.rateLimits ?? memoryRateLimitStore(), {
      logger,
      observer,
    }),
  }
  host = { catalogue, services }
  services.tasks.service.rerunOrphansWith(orphanRuns(catalogue, services))
  const encoder = new ResultEncoder(
    options.serverInfoInResults === false ? undefined : { [MetaKey.serverInfo]: catalogue.info },
  )
  const handshake =
    options.handshake === false
      ? undefined
      : handshakeSessions(
          options.handshake,
          options.stores ?? {},
          { catalogue, services, methods },
          telemetry,
        )
  return { catalogue, services, methods, encoder, handshake, telemetry }
}

/** Telemetry records only what is registered here (or a fixed value): never a name as a caller sent it. */
function knownNames({ tools, prompts, resources }: Catalogue, methods: MethodTable): Known {
  return {
    methods: new Set([...methods.names(), ...SESSION_METHODS]),
    tool: (name) => tools.get(name) !== undefined,
    prompt: (name) => prompts.get(name) !== undefined,
    resource: (uri) => resources.getStatic(uri) !== undefined || !resources.matching(uri).next().done,
  }
}

function buildCatalogue(options: ServerOptions, tasks: Extension): Catalogue {
  const info: Implementation = { name: options.name, version: options.version }
  if (options.title !== undefined) info.title = options.title
  if (options.description !== undefined) info.description = options.description
  if (options.websiteUrl !== undefined) info.websiteUrl = options.websiteUrl
  const extensions = new InstalledExtensions([tasks, ...(options.extensions ?? [])], CORE_METHOD_NAMES, {
    tools: CORE_TOOL_OPTIONS,
    resources: CORE_RESOURCE_OPTIONS,
    prompts: CORE_PROMPT_OPTIONS,
  })
  const tools = new ToolRegistry(
    extensions.tools,
    resolveLimits(options.limits, DEFAULT_LIMITS, 'createServer'),
  )
  const resources = new ResourceRegistry(extensions.resources)
  const prompts = new PromptRegistry(extensions.prompts)
  const logging = options.logging === true
  const known = new Map<string, ServerCapabilities>()
  const hasCompletions = () => prompts.size > 0 || resources.listTemplates().length > 0
  return {
    info,
    instructions: options.instructions,
    tools,
    resources,
    prompts,
    cache: resolveCacheHints(options.cache),
    pageSize: positiveInteger(options.pageSize ?? 100, 'pageSize'),
    listOnlyPermitted: options.listOnlyPermitted === true,
    logging,
    versions: { modern: MODERN_VERSIONS, handshake: options.handshake === false ? [] : HANDSHAKE_VERSIONS },
    extensions,
    capabilities: (era: Era) =>
      capabilitiesOf(
        { tools, resources, prompts, completions: hasCompletions(), logging },
        extensions.advertised(era),
        known,
      ),
    hasCompletions,
  }
}

function handshakeSessions(
  options: HandshakeOptions | undefined,
  stores: Stores,
  server: ServerParts,
  telemetry: Telemetry | undefined,
): HandshakeSessions {
  const sessions = stores.sessions ?? memorySessionStore()
  if (sessions.count !== undefined) telemetry?.countSessions(() => sessions.count!())
  return new HandshakeSessions(server, {
    sessions,
    events: stores.events ?? memoryEventStore(),
    requestTimeoutMs: positiveInteger(options?.requestTimeoutMs ?? 5 * 60_000, 'handshake.requestTimeoutMs'),
  })
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

/** What the capabilities follow from. */
interface Registered {
  tools: ToolRegistry
  resources: ResourceRegistry
  prompts: PromptRegistry
  completions: boolean
  logging: boolean
}

/** Distinct capability objects kept at most; past it the cache starts again. */
const MAX_KNOWN_CAPABILITIES = 256

/**
 * The capabilities follow from which kinds of things are registered and what the extensions
 * advertise: one frozen object per combination, kept in `known`, so a result that carries them
 * (`server/discover`) is the same object until a registration changes them and is encoded once
 * per combination.
 */
function capabilitiesOf(
  registered: Registered,
  advertised: Advertised,
  known: Map<string, ServerCapabilities>,
): ServerCapabilities {
  const tools = registered.tools.size > 0
  const resources = registered.resources.size > 0
  const prompts = registered.prompts.size > 0
  const { completions, logging } = registered
  const index =
    Number(tools) |
    (Number(resources) << 1) |
    (Number(prompts) << 2) |
    (Number(completions) << 3) |
    (Number(logging) << 4)
  const { extensions } = advertised
  const key = `${index}${advertised.key}`
  const cached = known.get(key)
  if (cached !== undefined) return cached
  const caps: ServerCapabilities = {}
  if (tools) caps.tools = { listChanged: true }
  if (resources) caps.resources = { subscribe: true, listChanged: true }
  if (prompts) caps.prompts = { listChanged: true }
  if (completions) caps.completions = {}
  if (logging) caps.logging = {}
  if (extensions !== undefined)
    caps.extensions = structuredClone(extensions) as ServerCapabilities['extensions']
  if (known.size >= MAX_KNOWN_CAPABILITIES) known.clear()
  known.set(key, deepFreeze(caps))
  return caps
}

function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) if (typeof child === 'object' && child !== null) deepFreeze(child)
  return Object.freeze(value)
}

function assertOptions(options: ServerOptions): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('createServer needs options.')
  assertKnownOptions(options, OPTION_NAMES, 'createServer')
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
    })
  }
}
