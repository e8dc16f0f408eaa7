/**
 * @module installed-extensions
 * The extensions one server was created with, checked once: identifiers well formed and each
 * installed once, methods and options that collide with nobody's, and the settings each
 * advertises in each revision: asked of the extensions once, and again only after a registration
 * changed what the definitions carry, so a request reads them without asking.
 */
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { Era } from '../context.ts'
import { DefinitionHooks } from './definition-hooks.ts'
import type { Extension, ExtensionUsage } from './extension.ts'

/** `{vendor-prefix}/{name}`: a reverse-DNS prefix, one slash, a name. */
const EXTENSION_ID = /^[a-z0-9]+(?:[.-][a-z0-9]+)*\/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/
const BOTH_ERAS: readonly Era[] = ['modern', 'handshake']

/** The option names of each kind of definition that the core itself reads. */
export interface CoreOptionNames {
  readonly tools: readonly string[]
  readonly resources: readonly string[]
  readonly prompts: readonly string[]
}

/** What the extensions advertise in one revision, as of the last change of their usage. */
export interface Advertised {
  /** Each extension's settings by id; undefined for one not offered there now. */
  readonly byId: ReadonlyMap<string, JsonObject | undefined>
  /** `capabilities.extensions`: every extension offered there now; undefined when none is. */
  readonly extensions: JsonObject | undefined
  /** A key of `extensions`, equal for equal settings. */
  readonly key: string
}

export class InstalledExtensions {
  readonly all: readonly Extension[]
  readonly tools: DefinitionHooks
  readonly resources: DefinitionHooks
  readonly prompts: DefinitionHooks
  readonly #advertised = new Map<Era, Advertised>()

  constructor(extensions: readonly Extension[], coreMethods: Iterable<string>, coreOptions: CoreOptionNames) {
    this.all = checked(extensions, new Set(coreMethods))
    const changed = () => this.#advertised.clear()
    this.tools = hooksOf(this.all, 'tools', coreOptions.tools, changed)
    this.resources = hooksOf(this.all, 'resources', coreOptions.resources, changed)
    this.prompts = hooksOf(this.all, 'prompts', coreOptions.prompts, changed)
  }

  /** Extension `id`'s usage by the registered definitions. */
  usage(id: string): ExtensionUsage {
    return {
      tools: this.tools.usage(id),
      resources: this.resources.usage(id),
      prompts: this.prompts.usage(id),
    }
  }

  /** The settings `extension` advertises now in `era`; undefined when it is not offered there now. */
  settingsOf(extension: Extension, era: Era): JsonObject | undefined {
    return this.advertised(era).byId.get(extension.id)
  }

  /** What the extensions advertise now in `era`. */
  advertised(era: Era): Advertised {
    let advertised = this.#advertised.get(era)
    if (advertised === undefined) {
      advertised = this.#ask(era)
      this.#advertised.set(era, advertised)
    }
    return advertised
  }

  #ask(era: Era): Advertised {
    const byId = new Map<string, JsonObject | undefined>()
    const offered: JsonObject = {}
    for (const extension of this.all) {
      const settings = this.#settings(extension, era)
      byId.set(extension.id, settings)
      if (settings !== undefined) offered[extension.id] = settings
    }
    const none = Object.keys(offered).length === 0
    return { byId, extensions: none ? undefined : offered, key: none ? '' : JSON.stringify(offered) }
  }

  #settings(extension: Extension, era: Era): JsonObject | undefined {
    if (!(extension.eras ?? BOTH_ERAS).includes(era)) return undefined
    if (extension.settings === undefined) return EMPTY
    const settings = extension.settings(this.usage(extension.id))
    if (settings === undefined) return undefined
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
      throw new TypeError(`Extension '${extension.id}': settings() must return an object or undefined.`)
    return settings
  }
}

const EMPTY: JsonObject = Object.freeze({}) as JsonObject

function checked(extensions: readonly Extension[], coreMethods: ReadonlySet<string>): readonly Extension[] {
  if (!Array.isArray(extensions)) throw new TypeError('createServer: extensions must be an array.')
  const ids = new Set<string>()
  const methods = new Map<string, string>()
  for (const extension of extensions) {
    if (typeof extension !== 'object' || extension === null || typeof extension.id !== 'string')
      throw new TypeError('createServer: each extension needs an id.')
    const { id } = extension
    if (!EXTENSION_ID.test(id))
      throw new TypeError(`Extension '${id.slice(0, 64)}': its id must be {vendor-prefix}/{name}.`)
    if (ids.has(id)) throw new TypeError(`Extension '${id}' is installed twice.`)
    ids.add(id)
    for (const [name, method] of Object.entries(extension.methods ?? {})) {
      if (typeof (method as { run?: unknown } | undefined)?.run !== 'function')
        throw new TypeError(`Extension '${id}': method '${name}' needs a run function.`)
      const owner = coreMethods.has(name) ? 'the core' : methods.get(name)
      if (owner !== undefined)
        throw new TypeError(`Extension '${id}': method '${name}' is already served by ${owner}.`)
      methods.set(name, `the ${id} extension`)
    }
  }
  return Object.freeze([...extensions])
}

function hooksOf(
  extensions: readonly Extension[],
  kind: 'tools' | 'resources' | 'prompts',
  coreNames: readonly string[],
  onUsageChange: () => void,
): DefinitionHooks {
  const owners = new Map<string, string>(coreNames.map((name) => [name, 'the core']))
  const hooks = []
  for (const extension of extensions) {
    const options = extension[kind]
    if (options === undefined) continue
    if (typeof options.define !== 'function')
      throw new TypeError(`Extension '${extension.id}': ${kind}.define must be a function.`)
    for (const name of options.names ?? []) {
      const owner = owners.get(name)
      if (owner !== undefined)
        throw new TypeError(
          `Extension '${extension.id}': option '${name}' of ${kind} is already read by ${owner}.`,
        )
      owners.set(name, `the ${extension.id} extension`)
    }
    hooks.push({ id: extension.id, options })
  }
  return new DefinitionHooks(hooks, onUsageChange)
}
