/**
 * @module definition-hooks
 * What the installed extensions add to one kind of definition: the option names they accept
 * beside the core's, their `define` run on each registration before anything is stored, the
 * `_meta` entries they add, how many registered definitions carry each extension's data, and
 * whether one is offered to a request.
 */
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import { type ClientCapabilities, declaresExtension } from '../../protocol/modern/capabilities.ts'
import type { Definition, DefinitionOptions } from './extension.ts'

/** One extension's options for one kind of definition. */
export interface DefinitionHook {
  readonly id: string
  readonly options: DefinitionOptions
}

/** What the extensions kept for one registered definition. */
export interface Extended {
  /** By extension id, only those whose `define` returned something. */
  readonly data: ReadonlyMap<string, unknown>
  /** The definition's `_meta` with the extensions' entries; undefined when there is none. */
  readonly meta: JsonObject | undefined
}

const NOTHING: ReadonlyMap<string, unknown> = new Map()

export class DefinitionHooks {
  readonly #hooks: readonly DefinitionHook[]
  readonly #usage = new Map<string, number>()
  readonly #onUsageChange: (() => void) | undefined
  /** The `visible` of each extension that has one, by id. */
  readonly #visible: ReadonlyMap<string, NonNullable<DefinitionOptions['visible']>>
  /** The option names the extensions add, each mapped to `true` (as `assertKnownOptions` takes them). */
  readonly names: Readonly<Record<string, true>>

  /** `onUsageChange`: called after a stored or removed definition changed an extension's usage. */
  constructor(hooks: readonly DefinitionHook[] = [], onUsageChange?: () => void) {
    this.#hooks = hooks
    this.#onUsageChange = onUsageChange
    this.#visible = new Map(
      hooks.flatMap(({ id, options }) =>
        options.visible === undefined ? [] : [[id, options.visible.bind(options)]],
      ),
    )
    this.names = Object.fromEntries(hooks.flatMap((hook) => (hook.options.names ?? []).map((n) => [n, true])))
  }

  /**
   * Runs every extension's `define` on a definition being registered: a TypeError any of them
   * throws refuses the registration, before anything is stored.
   */
  define(what: Omit<Definition, 'config'>, config: object, meta: unknown): Extended {
    const own = meta as JsonObject | undefined
    const definition: Definition = { ...what, config: config as Definition['config'] }
    if (this.#hooks.length === 0) return { data: NOTHING, meta: own }
    const data = new Map<string, unknown>()
    let merged = own
    for (const { id, options } of this.#hooks) {
      const defined = options.define(definition)
      if (defined === undefined) continue
      data.set(id, defined.data)
      if (defined.meta === undefined) continue
      merged = { ...merged }
      for (const [key, value] of Object.entries(defined.meta)) {
        if (Object.hasOwn(merged, key))
          throw new TypeError(
            `${definition.label}: _meta.${key} is set by the ${id} extension; do not set it too.`,
          )
        merged[key] = value
      }
    }
    return { data, meta: merged }
  }

  /** Counts what a stored definition carries. */
  added(extended: Extended): void {
    if (extended.data.size === 0) return
    for (const id of extended.data.keys()) this.#usage.set(id, (this.#usage.get(id) ?? 0) + 1)
    this.#onUsageChange?.()
  }

  /** Uncounts what a removed definition carried. */
  removed(extended: Extended): void {
    if (extended.data.size === 0) return
    for (const id of extended.data.keys()) this.#usage.set(id, (this.#usage.get(id) ?? 1) - 1)
    this.#onUsageChange?.()
  }

  /** Whether an extension may hide the definition from some requests. */
  hides(extended: Extended): boolean {
    for (const id of extended.data.keys()) if (this.#visible.has(id)) return true
    return false
  }

  /** Whether the definition is offered to a request whose capabilities are `caps`. */
  offers(extended: Extended, caps: ClientCapabilities): boolean {
    for (const [id, data] of extended.data) {
      const visible = this.#visible.get(id)
      if (visible !== undefined && !visible(data, { declared: declaresExtension(caps, id) })) return false
    }
    return true
  }

  /** A key telling apart the requests the definitions may be offered to differently. */
  audienceOf(caps: ClientCapabilities): string {
    let key = ''
    for (const id of this.#visible.keys()) key += declaresExtension(caps, id) ? '1' : '0'
    return key
  }

  /** How many registered definitions carry something of extension `id`. */
  usage(id: string): number {
    return this.#usage.get(id) ?? 0
  }
}
