/**
 * @module tools
 * The tool registry: schemas compiled and the `x-mcp-header` mirror table built once, at
 * registration, from the same normalized schema that `tools/list` advertises. A name is taken
 * once: registering it again is refused (remove the tool first), never a silent replacement.
 */

import { assertKnownOptions, type OptionNames, positiveInteger } from '../../option-checks.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import { buildMirrorTable, type MirrorTable } from '../../protocol/modern/param-headers/index.ts'
import { type CompiledSchema, compileSchema, EMPTY_OBJECT_SCHEMA } from '../../schema/validator.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import { registeredScopes } from '../authorization.ts'
import type { RequestContext } from '../context.ts'
import type { ToolConfig, ToolTaskOptions, ToolTraceOptions } from '../types.ts'
import { assertName } from './names.ts'
import { visibleTo } from './visible.ts'

export interface RegisteredTool {
  readonly name: string
  readonly descriptor: JsonObject
  readonly input: CompiledSchema | undefined
  readonly output: CompiledSchema | undefined
  readonly mirror: MirrorTable
  readonly handler: AnyToolHandler
  readonly singleUse: boolean
  readonly scopes: readonly string[]
  /** How it runs as a task; undefined: always synchronously. */
  readonly task: ToolTask | undefined
  /** What of its calls goes on the request's span beyond names (nothing by default). */
  readonly trace: { readonly arguments: boolean; readonly result: boolean }
}

export interface ToolTask {
  readonly support: 'optional' | 'required'
  readonly when: ((args: Record<string, unknown>) => boolean) | undefined
  readonly start: 'call' | 'handler'
  readonly ttlMs: number | null | undefined
  readonly pollIntervalMs: number | undefined
}

/** A handler as the registry holds it: what it returns is checked when it returns. */
export type AnyToolHandler = (args: Record<string, unknown>, ctx: RequestContext) => unknown

export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>()
  #listCache: JsonObject[] | undefined

  get size(): number {
    return this.#tools.size
  }

  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name)
  }

  /** Whether any tool registered now may run as a task. */
  hasTasks(): boolean {
    for (const tool of this.#tools.values()) if (tool.task !== undefined) return true
    return false
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
    assertKnownOptions(config, TOOL_CONFIG_NAMES, `Tool '${name}'`, { required: true })
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
    const tool: RegisteredTool = {
      name,
      descriptor: describe(name, config, inputSchema, output),
      input,
      output,
      mirror: buildMirrorTable(name, inputSchema),
      handler,
      singleUse: config.singleUse === true,
      scopes: registeredScopes(config.scopes, `Tool '${name}'`),
      task: toolTask(config.task, `Tool '${name}'`),
      trace: toolTrace(config.trace, `Tool '${name}'`),
    }
    this.#tools.set(name, tool)
    this.#listCache = undefined
    return tool
  }

  remove(name: string): boolean {
    const removed = this.#tools.delete(name)
    if (removed) this.#listCache = undefined
    return removed
  }

  /** Descriptors in registration order, computed once per change. */
  list(): readonly JsonObject[] {
    this.#listCache ??= [...this.#tools.values()].map((t) => t.descriptor)
    return this.#listCache
  }

  /** The descriptors of the tools `auth` holds the scopes of. */
  listFor(auth: AuthInfo | undefined): readonly JsonObject[] {
    return visibleTo(this.#tools.values(), auth) ?? this.list()
  }
}

function describe(
  name: string,
  config: ToolConfig,
  inputSchema: JsonObject,
  output: CompiledSchema | undefined,
): JsonObject {
  const d: JsonObject = { name }
  if (config.title !== undefined) d.title = config.title
  d.description = config.description
  d.inputSchema = inputSchema
  if (output !== undefined) d.outputSchema = output.jsonSchema
  if (config.annotations !== undefined) d.annotations = config.annotations
  if (config.icons !== undefined) d.icons = config.icons
  if (config._meta !== undefined) d._meta = config._meta
  return d
}

function toolTask(option: ToolConfig['task'], what: string): ToolTask | undefined {
  if (option === undefined) return undefined
  const options: ToolTaskOptions = typeof option === 'string' ? { support: option } : option
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${what}: task must be 'optional', 'required' or an options object.`)
  }
  assertKnownOptions(options, TASK_OPTION_NAMES, what, { path: 'task' })
  if (options.support !== 'optional' && options.support !== 'required') {
    throw new TypeError(`${what}: task support must be 'optional' or 'required'.`)
  }
  if (options.when !== undefined && typeof options.when !== 'function') {
    throw new TypeError(`${what}: task.when must be a function.`)
  }
  if (options.when !== undefined && options.support === 'required') {
    throw new TypeError(
      `${what}: task.when needs support 'optional' (a required task runs as a task always).`,
    )
  }
  const start = options.start ?? 'call'
  if (start !== 'call' && start !== 'handler') {
    throw new TypeError(`${what}: task.start must be 'call' or 'handler'.`)
  }
  const ttlMs = options.ttlMs
  if (ttlMs !== undefined && ttlMs !== null) positiveInteger(ttlMs, `${what}: task.ttlMs`)
  const poll = options.pollIntervalMs
  if (poll !== undefined) positiveInteger(poll, `${what}: task.pollIntervalMs`)
  return {
    support: options.support,
    when: options.when as ToolTask['when'],
    start,
    ttlMs,
    pollIntervalMs: poll,
  }
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
  task: true,
  trace: true,
  _meta: true,
} as const satisfies OptionNames<ToolConfig>
const TASK_OPTION_NAMES = {
  support: true,
  when: true,
  start: true,
  ttlMs: true,
  pollIntervalMs: true,
} as const satisfies OptionNames<ToolTaskOptions>
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
