/**
 * @module prompts
 * The prompt registry. Arguments come from a zod object of strings (optional fields stay out of
 * `required`) or an explicit list; either way they are checked before the handler runs.
 */
import { z } from 'zod'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { Completer, PromptArgument, PromptConfig, PromptHandler } from '../types.ts'
import { assertName } from './names.ts'

export interface RegisteredPrompt {
  readonly name: string
  readonly descriptor: JsonObject
  readonly arguments: readonly PromptArgument[]
  readonly schema: z.ZodObject | undefined
  readonly complete: Record<string, Completer> | undefined
  readonly handler: PromptHandler
}

export type PromptArgsCheck = { ok: true; value: Record<string, string> } | { ok: false; message: string }

export class PromptRegistry {
  private readonly prompts = new Map<string, RegisteredPrompt>()
  private listCache: JsonObject[] | undefined

  get size(): number {
    return this.prompts.size
  }

  get(name: string): RegisteredPrompt | undefined {
    return this.prompts.get(name)
  }

  register(name: string, config: PromptConfig, handler: PromptHandler): void {
    assertName('Prompt', name)
    if (typeof config?.description !== 'string') throw new TypeError(`Prompt '${name}' needs a description.`)
    if (typeof handler !== 'function') throw new TypeError(`Prompt '${name}' needs a handler function.`)
    const schema = config.args instanceof z.ZodObject ? config.args : undefined
    const args = schema ? argumentsOf(schema) : ((config.args as PromptArgument[] | undefined) ?? [])
    const d: JsonObject = { name }
    if (config.title !== undefined) d.title = config.title
    d.description = config.description
    if (args.length > 0) d.arguments = args
    if (config.icons !== undefined) d.icons = config.icons
    if (config._meta !== undefined) d._meta = config._meta
    this.prompts.set(name, {
      name,
      descriptor: d,
      arguments: args,
      schema,
      complete: config.complete,
      handler,
    })
    this.listCache = undefined
  }

  remove(name: string): boolean {
    const removed = this.prompts.delete(name)
    if (removed) this.listCache = undefined
    return removed
  }

  list(): readonly JsonObject[] {
    this.listCache ??= [...this.prompts.values()].map((p) => p.descriptor)
    return this.listCache
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
    return { ok: true, value: parsed.data as Record<string, string> }
  }
  for (const arg of prompt.arguments) {
    if (arg.required && args[arg.name] === undefined)
      return { ok: false, message: `missing required argument '${arg.name}'` }
  }
  return { ok: true, value: args as Record<string, string> }
}

function argumentsOf(schema: z.ZodObject): PromptArgument[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const f = field as z.ZodType
    const arg: PromptArgument = { name }
    if (f.description !== undefined) arg.description = f.description
    arg.required = !f.safeParse(undefined).success
    return arg
  })
}
