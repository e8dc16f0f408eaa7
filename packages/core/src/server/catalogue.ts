/**
 * @module catalogue
 * What a server offers and how it lists it: its identity, the registries of tools, resources and
 * prompts, the cache hints and page size of their lists, the versions it speaks, its extensions,
 * and the capabilities that follow from what is registered. Methods read it; only registration changes it.
 */
import type { JsonObject } from '../protocol/jsonrpc/message.ts'
import type { ServerCapabilities } from '../protocol/modern/capabilities.ts'
import type { Implementation } from '../protocol/modern/request-meta.ts'
import type { ResolvedCacheHints } from './cache-hints.ts'
import type { Era } from './context.ts'
import type { InstalledExtensions } from './extensions/installed-extensions.ts'
import type { PromptRegistry } from './registry/prompts.ts'
import type { ResourceRegistry } from './registry/resources.ts'
import type { ToolRegistry } from './registry/tools.ts'

export interface Catalogue {
  readonly info: Implementation
  readonly instructions: string | undefined
  readonly tools: ToolRegistry
  readonly resources: ResourceRegistry
  readonly prompts: PromptRegistry
  readonly cache: ResolvedCacheHints
  readonly pageSize: number
  /** Lists show only what the caller's scopes permit (and are then private to it). */
  readonly listOnlyPermitted: boolean
  /** The (deprecated) logging capability is declared and per-request `logLevel` honoured. */
  readonly logging: boolean
  readonly versions: Versions
  /** The extensions it was created with (tasks always among them). */
  readonly extensions: InstalledExtensions
  /** What `server/discover` (2026-07-28) or `initialize` (2025-11-25) advertises now. */
  capabilities(era: Era): ServerCapabilities
  hasCompletions(): boolean
}

/** Versions accepted per request (2026-07-28) and, when the handshake era is on, by initialize. */
export interface Versions {
  readonly modern: readonly string[]
  /** Empty when the server serves 2026-07-28 only. */
  readonly handshake: readonly string[]
}

const NO_SCOPES: readonly string[] = Object.freeze([])

/**
 * The scopes reading `uri` needs: the static resource's, or those of every template that matches
 * it (a read may fall through to any of them); undefined when nothing registered serves `uri`.
 * A subscription to `uri` needs the same, so what a caller may not read it cannot follow either.
 */
export function readScopes(
  catalogue: Pick<Catalogue, 'resources'>,
  uri: string,
): readonly string[] | undefined {
  const resource = catalogue.resources.getStatic(uri)
  if (resource !== undefined) return resource.scopes
  let scopes: readonly string[] | undefined
  for (const [template] of catalogue.resources.matching(uri)) {
    if (scopes === undefined) scopes = template.scopes
    else if (template.scopes.length > 0) scopes = [...new Set([...scopes, ...template.scopes])]
  }
  return scopes
}

/**
 * The scopes serving `method` on `params` needs, as far as its target is named before it runs
 * (the tool, the prompt, the resource): what a token must hold to cancel or answer for the
 * request of another token of the same session.
 */
export function targetScopes(
  catalogue: Pick<Catalogue, 'tools' | 'prompts' | 'resources'>,
  method: string,
  params: JsonObject | undefined,
): readonly string[] {
  const name = params?.name
  const uri = params?.uri
  if (method === 'tools/call' && typeof name === 'string')
    return catalogue.tools.get(name)?.scopes ?? NO_SCOPES
  if (method === 'prompts/get' && typeof name === 'string')
    return catalogue.prompts.get(name)?.scopes ?? NO_SCOPES
  if (method === 'resources/read' && typeof uri === 'string') return readScopes(catalogue, uri) ?? NO_SCOPES
  return NO_SCOPES
}
