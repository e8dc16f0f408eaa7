/**
 * @module tools
 * The tool registry: schemas compiled and the `x-mcp-header` mirror table built once, at
 * registration, from the same normalized schema that `tools/list` advertises. A name is taken
 * once: registering it again is refused (remove the tool first), never a silent replacement.
 */

import { assertKnownOptions, type OptionNames } from '../../option-checks.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { ClientCapabilities } from '../../protocol/modern/capabilities.ts'
import { buildMirrorTable, type MirrorTable } from '../../protocol/modern/param-headers/index.ts'
import { type CompiledSchema, compileSchema, EMPTY_OBJECT_SCHEMA } from '../../schema/validator.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import { registeredScopes } from '../authorization.ts'
import type { RequestContext } from '../context.ts'
import { DefinitionHooks, type Extended } from '../extensions/definition-hooks.ts'
import type { ExtensionToolOptions } from '../extensions/extension-options.ts'
import { DEFAULT_LIMITS, type ResolvedLimits, resolveLimits } from '../limits/call-limits.ts'
import { type ResolvedLimit, resolveLimit } from '../rate-limits/rate-limits.ts'
import type { ToolConfig, ToolTraceOptions } from '../types.ts'
import { assertName } from './names.ts'
import { visibleTo } from './visible.ts'

export interface RegisteredTool {
  readonly name: string
  /** How refusals and logs name it: `Tool 'deploy'`. */
  readonly label: string
  readonly descriptor: JsonObject
  readonly input: CompiledSchema | undefined
  readonly output: CompiledSchema | undefined
  readonly mirror: MirrorTable
  readonly handler: AnyToolHandler
  readonly singleUse: boolean
  readonly scopes: readonly string[]
  /** What the installed extensions keep for it (how it runs as a task, its view). */
  readonly extended: Extended
  /** What of its calls goes on the request's span beyond names (nothing by default). */
  readonly trace: { readonly arguments: boolean; readonly result: boolean }
  /** What one call may take and give: its own limits over the server's. */
  readonly limits: ResolvedLimits
  /** Its own rate limit, per caller; undefined when it has none. */
  readonly rateLimit: ResolvedLimit | undefined
}

/** A handler as the registry holds it: what it returns is checked when it returns. */
export type AnyToolHandler = (args: Record<string, unknown>, ctx: RequestContext) => unknown

export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>()
  readonly #extensions: DefinitionHooks
  readonly #known: Readonly<Record<string, true>>
  #listCache: JsonObject[] | undefined
  /** How many tools an extension may hide from some requests. */
  #hidable = 0
  /** How many tools need scopes: while none does, every caller is listed every tool it is offered. */
  #scoped = 0
  /** The list each audience is offered (see `DefinitionHooks.audienceOf`), while some tool is hidable. */
  readonly #shownCache = new Map<string, JsonObject[]>()

  readonly #limits: ResolvedLimits

  /** `limits`: the server's, which a tool's own override one by one. */
  constructor(extensions = new DefinitionHooks(), limits = DEFAULT_LIMITS) {
    this.#extensions = extensions
    this.#limits = limits
    this.#known = { ...TOOL_CONFIG_NAMES, ...extensions.names }
  }

  get size(): number {
    return this.#tools.size
  }

  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name)
  }

  /** Whether any tool registered now is single-use. */
  hasSingleUse(): boolean {
    return this.singleUseNames().length > 0
  }

  /** The names of the single-use tools registered now. */
  singleUseNames(): string[] {
    return [...this.#tools].filter(([, tool]) => tool.singleUse).map(([name]) => name)
  }

  register(name: string, config: ToolConfig, handler: AnyToolHandler): RegisteredTool {
    assertName('Tool', name)
    if (this.#tools.has(name)) {
      throw new TypeError(`Tool '${name}' is already registered; remove it first (removeTool) to replace it.`)
    }
    assertKnownOptions(config, this.#known, `Tool '${name}'`, { required: true })
    if (typeof config?.description !== 'string') throw new TypeError(`Tool '${name}' needs a description.`)
    if (typeof handler !== 'function') throw new TypeError(`Tool '${name}' needs a handler function.`)
    const input =
      config.input === undefined ? undefined : compileSchema(config.input, 'input', `Tool '${name}': input`)
    const inputSchema = input?.jsonSchema ?? EMPTY_OBJECT_SCHEMA
    if (inputSchema.type !== 'object')
      throw new TypeError(`Tool '${name}': input schema must have type "object".`)
    const output =
      config.output === undefined
        ? undefined
        : compileSchema(config.output, 'output', `Tool '${name}': output`)
    if (output !== undefined && output.jsonSchema.type !== 'object')
      throw new TypeError(`Tool '${name}': output schema must have type "object".`)
    const label = `Tool '${name}'`
    const extended = this.#extensions.define({ kind: 'tool', name, label }, config, config._meta)
    const tool: RegisteredTool = {
      name,
      label,
      descriptor: describe(name, config, inputSchema, output, extended.meta),
      input,
      output,
      mirror: buildMirrorTable(name, inputSchema),
      handler,
      singleUse: config.singleUse === true,
      scopes: registeredScopes(config.scopes, label),
      trace: toolTrace(config.trace, label),
      limits: resolveLimits(config.limits, this.#limits, label),
      rateLimit:
        config.rateLimit === undefined
          ? undefined
          : resolveLimit(config.rateLimit, 'tool', {
              where: label,
              path: 'rateLimit',
              what: `tools/call of '${name}' for every caller`,
            }),
      extended,
    }
    this.#tools.set(name, tool)
    this.#extensions.added(extended)
    if (this.#extensions.hides(extended)) this.#hidable++
    if (tool.scopes.length > 0) this.#scoped++
    this.#changed()
    return tool
  }

  remove(name: string): boolean {
    const tool = this.#tools.get(name)
    if (tool === undefined) return false
    this.#tools.delete(name)
    this.#extensions.removed(tool.extended)
    if (this.#extensions.hides(tool.extended)) this.#hidable--
    if (tool.scopes.length > 0) this.#scoped--
    this.#changed()
    return true
  }

  #changed(): void {
    this.#listCache = undefined
    this.#shownCache.clear()
  }

  /** Whether `tool` is offered to a request whose capabilities are `caps` (an extension may hide it). */
  offers(tool: RegisteredTool, caps: ClientCapabilities): boolean {
    return this.#hidable === 0 || this.#extensions.offers(tool.extended, caps)
  }

  /**
   * The descriptors offered to a request whose capabilities are `caps`: the whole list, unless an
   * extension hides some tool from it; computed once per change and audience.
   */
  shownTo(caps: ClientCapabilities): readonly JsonObject[] {
    if (this.#hidable === 0) return this.list()
    const audience = this.#extensions.audienceOf(caps)
    let shown = this.#shownCache.get(audience)
    if (shown === undefined) {
      shown = [...this.#tools.values()]
        .filter((t) => this.#extensions.offers(t.extended, caps))
        .map((t) => t.descriptor)
      this.#shownCache.set(audience, shown)
    }
    return shown
  }

  /** Descriptors in registration order, computed once per change. */
  list(): readonly JsonObject[] {
    this.#listCache ??= [...this.#tools.values()].map((t) => t.descriptor)
    return this.#listCache
  }

  /** The descriptors offered to a request with `caps` of the tools `auth` holds the scopes of. */
  listFor(auth: AuthInfo | undefined, caps: ClientCapabilities): readonly JsonObject[] {
    if (this.#scoped === 0) return this.shownTo(caps)
    const all = [...this.#tools.values()]
    const offered =
      this.#hidable === 0 ? all : all.filter((tool) => this.#extensions.offers(tool.extended, caps))
    return visibleTo(offered, auth) ?? this.shownTo(caps)
  }
}

function describe(
  name: string,
  config: ToolConfig,
  inputSchema: JsonObject,
  output: CompiledSchema | undefined,
  meta: JsonObject | undefined,
): JsonObject {
  const d: JsonObject = { name }
  if (config.title !== undefined) d.title = config.title
  d.description = config.description
  d.inputSchema = inputSchema
  if (output !== undefined) d.outputSchema = output.jsonSchema
  if (config.annotations !== undefined) d.annotations = config.annotations
  if (config.icons !== undefined) d.icons = config.icons
  if (meta !== undefined) d._meta = meta
  return d
}

const TOOL_CONFIG_NAMES = {
  title: true,
  description: true,
  input: true,
  output: true,
  annotations: true,
  icons: true,
  singleUse: true,
  scopes: true,
  trace: true,
  limits: true,
  rateLimit: true,
  _meta: true,
} as const satisfies OptionNames<Omit<ToolConfig, 'task' | keyof ExtensionToolOptions>>

/** The option names of a tool the core reads itself (`task` belongs to the tasks extension). */
export const CORE_TOOL_OPTIONS: readonly string[] = Object.keys(TOOL_CONFIG_NAMES)
const TRACE_OPTION_NAMES = { arguments: true, result: true } as const satisfies OptionNames<ToolTraceOptions>

function toolTrace(option: ToolConfig['trace'], what: string): RegisteredTool['trace'] {
  if (option === undefined) return NOTHING_TRACED
  if (typeof option !== 'object' || option === null) {
    throw new TypeError(`${what}: trace must be an object ({ arguments?: boolean, result?: boolean }).`)
  }
  assertKnownOptions(option, TRACE_OPTION_NAMES, what, { path: 'trace' })
  for (const [key, value] of Object.entries(option)) {
    if (value !== undefined && typeof value !== 'boolean') {
      throw new TypeError(`${what}: trace.${key} must be a boolean.`)
    }
  }
  return { arguments: option.arguments === true, result: option.result === true }
}

const NOTHING_TRACED = { arguments: false, result: false } as const
