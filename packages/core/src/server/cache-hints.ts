/**
 * @module cache-hints
 * The cache hints of cacheable results (`ttlMs`, `cacheScope`): the server's own, resolved once,
 * and the check every hint passes at registration.
 */
import type { OptionNames } from '../option-checks.ts'
import type { CacheHint, CacheHints } from './types.ts'

export const CACHE_HINT_NAMES = {
  default: true,
  discover: true,
  toolsList: true,
  promptsList: true,
  resourcesList: true,
  resourceTemplatesList: true,
  resourcesRead: true,
} as const satisfies OptionNames<CacheHints>

export type ResolvedCacheHints = Required<Omit<CacheHints, 'default'>>

export function resolveCacheHints(hints: CacheHints | undefined): ResolvedCacheHints {
  const fallback: CacheHint = hints?.default ?? { ttlMs: 0, cacheScope: 'private' }
  for (const hint of Object.values(hints ?? {})) assertCacheHint(hint)
  return {
    discover: hints?.discover ?? fallback,
    toolsList: hints?.toolsList ?? fallback,
    promptsList: hints?.promptsList ?? fallback,
    resourcesList: hints?.resourcesList ?? fallback,
    resourceTemplatesList: hints?.resourceTemplatesList ?? fallback,
    resourcesRead: hints?.resourcesRead ?? fallback,
  }
}

export function assertCacheHint(hint: CacheHint | undefined): void {
  if (hint === undefined) return
  if (!Number.isSafeInteger(hint.ttlMs) || hint.ttlMs < 0)
    throw new RangeError('ttlMs must be an integer >= 0.')
  if (hint.cacheScope !== 'public' && hint.cacheScope !== 'private') {
    throw new TypeError('cacheScope must be "public" or "private".')
  }
}
