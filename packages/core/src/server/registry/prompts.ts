/**
 * @module prompts
 * The prompt registry. Prompt arguments travel as strings, so they come from a zod object whose
 * every field accepts a string (optional fields stay out of `required`), or from an explicit list;
 * a schema that could never accept what a client sends is refused at registration. Arguments
 * are checked before the handler runs. A name is taken once.
 */
import { z } from 'zod'
import { assertKnownOptions, type OptionNames } from '../../option-checks.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { JsonSchema } from '../../schema/validator.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import { registeredScopes } from '../authorization.ts'
import type { RequestContext } from '../context.ts'
import { DefinitionHooks, type Extended } from '../extensions/definition-hooks.ts'
import type { ExtensionPromptOptions } from '../extensions/extension-options.ts'
import type { Completer, PromptArgument, PromptConfig } from '../types.ts'
import { assertName } from './names.ts'
import { visibleTo } from './visible.ts'

/** A handler as the registry holds it: what it returns is checked when it returns. */
export type AnyPromptHandler = (args: Record<string, unknown>, ctx: RequestContext) => unknown

export interface RegisteredPrompt {
  readonly name: string
  readonly descriptor: JsonObject
  readonly arguments: readonly PromptArgument[]
  readonly schema: z.ZodObject | undefined
  readonly complete: Record<string, Completer> | undefined
  readonly handler: AnyPromptHandler
  readonly scopes: readonly string[]
  /** What the installed extensions keep for it. */
  readonly extended: Extended
}

export type PromptArgsCheck = { ok: true; value: Record<string, unknown> } | { ok: false; message: string }

const PROMPT_CONFIG_NAMES = {
  title: true,
  description: true,
  args: true,
  complete: true,
  icons: true,
  scopes: true,
  _meta: true,
} as const satisfies OptionNames<Omit<PromptConfig, keyof ExtensionPromptOptions>>

/** The option names of a prompt the core reads itself. */
export const CORE_PROMPT_OPTIONS: readonly string[] = Object.keys(PROMPT_CONFIG_NAMES)

export class PromptRegistry {
  readonly #prompts = new Map<string, RegisteredPrompt>()
  readonly #extensions: DefinitionHooks
  readonly #known: Readonly<Record<string, true>>
  #listCache: JsonObject[] | undefined

  constructor(extensions = new DefinitionHooks()) {
    this.#extensions = extensions
    this.#known = { ...PROMPT_CONFIG_NAMES, ...extensions.names }
  }

  get size(): number {
    return this.#prompts.size
  }

  get(name: string): RegisteredPrompt | undefined {
    return this.#prompts.get(name)
  }

  register(name: string, config: PromptConfig, handler: AnyPromptHandler): void {
    assertName('Prompt', name)
    if (this.#prompts.has(name)) {
      throw new TypeError(
        `Prompt '${name}' is already registered; remove it first (removePrompt) to replace it.`,
      )
    }
    const label = `Prompt '${name}'`
    assertKnownOptions(config, this.#known, label, { required: true })
    if (typeof config?.description !== 'string') throw new TypeError(`Prompt '${name}' needs a description.`)
    if (typeof handler !== 'function') throw new TypeError(`Prompt '${name}' needs a handler function.`)
    const schema = config.args instanceof z.ZodObject ? config.args : undefined
    const args = schema ? argumentsOf(name, schema) : listedArguments(name, config.args)
    const d: JsonObject = { name }
    if (config.title !== undefined) d.title = config.title
    d.description = config.description
    if (args.length > 0) d.arguments = args
    if (config.icons !== undefined) d.icons = config.icons
    const scopes = registeredScopes(config.scopes, label)
    const extended = this.#extensions.define({ kind: 'prompt', name, label }, config, config._meta)
    if (extended.meta !== undefined) d._meta = extended.meta
    this.#prompts.set(name, {
      name,
      descriptor: d,
      arguments: args,
      schema,
      complete: config.complete,
      handler,
      scopes,
      extended,
    })
    this.#extensions.added(extended)
    this.#listCache = undefined
  }

  remove(name: string): boolean {
    const prompt = this.#prompts.get(name)
    if (prompt === undefined) return false
    this.#prompts.delete(name)
    this.#extensions.removed(prompt.extended)
    this.#listCache = undefined
    return true
  }

  list(): readonly JsonObject[] {
    this.#listCache ??= [...this.#prompts.values()].map((p) => p.descriptor)
    return this.#listCache
  }

  /** The descriptors of the prompts `auth` holds the scopes of. */
  listFor(auth: AuthInfo | undefined): readonly JsonObject[] {
    return visibleTo(this.#prompts.values(), auth) ?? this.list()
  }
}

export function checkPromptArgs(prompt: RegisteredPrompt, raw: unknown): PromptArgsCheck {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    return { ok: false, message: 'arguments must be an object of strings' }
  }
  const args = (raw ?? {}) as Record<string, unknown>
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string') return { ok: false, message: `argument '${key}' must be a string` }
  }
  if (prompt.schema) {
    const parsed = prompt.schema.safeParse(args)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      return {
        ok: false,
        message: `argument '${issue?.path.join('.') ?? ''}': ${issue?.message ?? 'invalid'}`,
      }
    }
    return { ok: true, value: parsed.data }
  }
  for (const arg of prompt.arguments) {
    if (arg.required && args[arg.name] === undefined)
      return { ok: false, message: `missing required argument '${arg.name}'` }
  }
  return { ok: true, value: args }
}

function argumentsOf(prompt: string, schema: z.ZodObject): PromptArgument[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>
  return Object.entries(schema.shape).map(([name, field]) => {
    const f = field as z.ZodType
    if (!acceptsStrings(f, properties[name] ?? {})) {
      throw new TypeError(
        `Prompt '${prompt}': argument '${name}' must accept a string (prompt arguments arrive as strings); use z.string(), a string enum, or z.coerce to convert.`,
      )
    }
    const arg: PromptArgument = { name }
    if (f.description !== undefined) arg.description = f.description
    arg.required = !f.safeParse(undefined).success
    return arg
  })
}

/** Whether a field can ever accept a string: a string schema, a string enum or literal, or a coercion. */
function acceptsStrings(field: z.ZodType, json: JsonSchema): boolean {
  if (isCoercing(field)) return true
  return isStringSchema(json)
}

function isCoercing(field: z.ZodType): boolean {
  let def = field._zod.def as { coerce?: boolean; innerType?: z.ZodType }
  // Optional, default and nullable wrappers hold the real field as innerType.
  while (def.innerType !== undefined && def.coerce !== true) def = def.innerType._zod.def as typeof def
  return def.coerce === true
}

function isStringSchema(json: JsonSchema): boolean {
  if (json.type === 'string') return true
  if (Array.isArray(json.enum)) return json.enum.every((value) => typeof value === 'string')
  if (typeof json.const === 'string') return true
  const union = (json.anyOf ?? json.oneOf) as JsonSchema[] | undefined
  if (Array.isArray(union)) return union.some(isStringSchema)
  return false
}

function listedArguments(prompt: string, args: PromptConfig['args']): PromptArgument[] {
  if (args === undefined) return []
  if (!Array.isArray(args)) {
    throw new TypeError(`Prompt '${prompt}': args must be a zod 4 object or a list of { name, required? }.`)
  }
  const seen = new Set<string>()
  for (const arg of args as readonly PromptArgument[]) {
    if (typeof arg?.name !== 'string' || arg.name === '')
      throw new TypeError(`Prompt '${prompt}': every argument needs a name.`)
    if (seen.has(arg.name)) throw new TypeError(`Prompt '${prompt}': argument '${arg.name}' is listed twice.`)
    seen.add(arg.name)
  }
  return [...(args as readonly PromptArgument[])]
}
