/**
 * @module resources
 * Static resources by URI and resource templates (RFC 6570) tried in registration order. A read
 * resolves a static resource first, then the first template whose handler knows the URI. A URI or
 * a template is registered once.
 */

import { assertKnownOptions, type OptionNames } from '../../option-checks.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import { registeredScopes } from '../authorization.ts'
import { assertCacheHint } from '../cache-hints.ts'
import type { RequestContext } from '../context.ts'
import { DefinitionHooks, type Extended } from '../extensions/definition-hooks.ts'
import type { ExtensionResourceOptions } from '../extensions/extension-options.ts'
import type { CacheHint, Completer, ResourceConfig, TemplateConfig } from '../types.ts'
import { compileUriTemplate, type UriTemplate } from '../uri-template.ts'
import { visibleTo } from './visible.ts'

export interface RegisteredResource {
  readonly uri: string
  readonly descriptor: JsonObject
  readonly cache: CacheHint | undefined
  readonly handler: AnyResourceHandler
  readonly scopes: readonly string[]
  /** What the installed extensions keep for it. */
  readonly extended: Extended
}

/** Handlers as the registry holds them: what they return is checked when they return. */
export type AnyResourceHandler = (uri: string, ctx: RequestContext) => unknown
export type AnyTemplateHandler = (
  uri: string,
  variables: Record<string, string>,
  ctx: RequestContext,
) => unknown

export interface RegisteredTemplate {
  readonly template: UriTemplate
  readonly descriptor: JsonObject
  readonly cache: CacheHint | undefined
  readonly complete: Record<string, Completer> | undefined
  readonly handler: AnyTemplateHandler
  readonly scopes: readonly string[]
  /** What the installed extensions keep for it. */
  readonly extended: Extended
}

const RESOURCE_CONFIG_NAMES = {
  name: true,
  title: true,
  description: true,
  mimeType: true,
  size: true,
  annotations: true,
  cache: true,
  scopes: true,
  _meta: true,
} as const satisfies OptionNames<Omit<ResourceConfig, keyof ExtensionResourceOptions>>
const TEMPLATE_CONFIG_NAMES = {
  ...RESOURCE_CONFIG_NAMES,
  complete: true,
} as const satisfies OptionNames<Omit<TemplateConfig, keyof ExtensionResourceOptions>>

/** The option names of a resource or template the core reads itself. */
export const CORE_RESOURCE_OPTIONS: readonly string[] = Object.keys(TEMPLATE_CONFIG_NAMES)

export class ResourceRegistry {
  readonly #resources = new Map<string, RegisteredResource>()
  readonly #templates = new Map<string, RegisteredTemplate>()
  readonly #extensions: DefinitionHooks
  readonly #resourceNames: Readonly<Record<string, true>>
  readonly #templateNames: Readonly<Record<string, true>>
  #resourceList: JsonObject[] | undefined
  #templateList: JsonObject[] | undefined

  constructor(extensions = new DefinitionHooks()) {
    this.#extensions = extensions
    this.#resourceNames = { ...RESOURCE_CONFIG_NAMES, ...extensions.names }
    this.#templateNames = { ...TEMPLATE_CONFIG_NAMES, ...extensions.names }
  }

  get size(): number {
    return this.#resources.size + this.#templates.size
  }

  register(uri: string, config: ResourceConfig, handler: AnyResourceHandler): void {
    assertUri(uri)
    if (this.#resources.has(uri)) {
      throw new TypeError(
        `Resource '${uri}' is already registered; remove it first (removeResource) to replace it.`,
      )
    }
    const label = `Resource '${uri}'`
    assertKnownOptions(config, this.#resourceNames, label, { required: true })
    if (typeof config?.name !== 'string' || config.name === '')
      throw new TypeError(`Resource '${uri}' needs a name.`)
    if (typeof handler !== 'function') throw new TypeError(`Resource '${uri}' needs a handler function.`)
    assertCacheHint(config.cache)
    const scopes = registeredScopes(config.scopes, label)
    const extended = this.#extensions.define({ kind: 'resource', name: uri, label }, config, config._meta)
    this.#resources.set(uri, {
      uri,
      descriptor: describe({ uri }, config, extended.meta),
      cache: config.cache,
      handler,
      scopes,
      extended,
    })
    this.#extensions.added(extended)
    this.#resourceList = undefined
  }

  registerTemplate(uriTemplate: string, config: TemplateConfig, handler: AnyTemplateHandler): void {
    if (this.#templates.has(uriTemplate)) {
      throw new TypeError(
        `Resource template '${uriTemplate}' is already registered; remove it first (removeResource) to replace it.`,
      )
    }
    const label = `Resource template '${uriTemplate}'`
    assertKnownOptions(config, this.#templateNames, label, { required: true })
    if (typeof config?.name !== 'string' || config.name === '') {
      throw new TypeError(`Resource template '${uriTemplate}' needs a name.`)
    }
    if (typeof handler !== 'function')
      throw new TypeError(`Resource template '${uriTemplate}' needs a handler.`)
    assertCacheHint(config.cache)
    const template = compileUriTemplate(uriTemplate)
    const scopes = registeredScopes(config.scopes, label)
    const extended = this.#extensions.define(
      { kind: 'template', name: uriTemplate, label },
      config,
      config._meta,
    )
    this.#templates.set(uriTemplate, {
      template,
      descriptor: describe({ uriTemplate }, config, extended.meta),
      cache: config.cache,
      complete: config.complete,
      handler,
      scopes,
      extended,
    })
    this.#extensions.added(extended)
    this.#templateList = undefined
  }

  remove(uri: string): boolean {
    const removed = this.#resources.get(uri) ?? this.#templates.get(uri)
    if (removed === undefined) return false
    if (!this.#resources.delete(uri)) this.#templates.delete(uri)
    this.#extensions.removed(removed.extended)
    this.#resourceList = undefined
    this.#templateList = undefined
    return true
  }

  getStatic(uri: string): RegisteredResource | undefined {
    return this.#resources.get(uri)
  }

  getTemplate(uriTemplate: string): RegisteredTemplate | undefined {
    return this.#templates.get(uriTemplate)
  }

  /** Templates whose pattern matches `uri`, with the extracted variables. */
  *matching(uri: string): Generator<[RegisteredTemplate, Record<string, string>]> {
    for (const t of this.#templates.values()) {
      const vars = t.template.match(uri)
      if (vars !== undefined) yield [t, vars]
    }
  }

  list(): readonly JsonObject[] {
    this.#resourceList ??= [...this.#resources.values()].map((r) => r.descriptor)
    return this.#resourceList
  }

  listTemplates(): readonly JsonObject[] {
    this.#templateList ??= [...this.#templates.values()].map((t) => t.descriptor)
    return this.#templateList
  }

  /** The descriptors of the resources `auth` holds the scopes of. */
  listFor(auth: AuthInfo | undefined): readonly JsonObject[] {
    return visibleTo(this.#resources.values(), auth) ?? this.list()
  }

  /** The descriptors of the templates `auth` holds the scopes of. */
  listTemplatesFor(auth: AuthInfo | undefined): readonly JsonObject[] {
    return visibleTo(this.#templates.values(), auth) ?? this.listTemplates()
  }
}

function describe(base: JsonObject, config: ResourceConfig, meta: JsonObject | undefined): JsonObject {
  const d: JsonObject = { ...base, name: config.name }
  if (config.title !== undefined) d.title = config.title
  if (config.description !== undefined) d.description = config.description
  if (config.mimeType !== undefined) d.mimeType = config.mimeType
  if (config.size !== undefined) d.size = config.size
  if (config.annotations !== undefined) d.annotations = config.annotations
  if (meta !== undefined) d._meta = meta
  return d
}

function assertUri(uri: string): void {
  try {
    new URL(uri)
  } catch {
    throw new TypeError(`Resource URI '${uri}' is not an absolute URI.`)
  }
}
