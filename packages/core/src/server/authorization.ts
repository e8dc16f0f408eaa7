/**
 * @module authorization
 * Required scopes of tools, prompts, resources and templates. A call is checked before its
 * arguments are validated and before its handler runs; a caller without every scope the call
 * needs is refused with 403 and the whole list, so a client can ask for all of them at once.
 */
import { TesseraError } from '../errors.ts'
import type { JsonObject } from '../protocol/jsonrpc/message.ts'
import type { AuthInfo } from '../security/request-state/binding.ts'
import type { CacheHint } from './types.ts'

/** A call refused for missing scopes; `scopes` is every scope the call needs, granted or not. */
export class InsufficientScopeError extends TesseraError {
  override readonly name = 'InsufficientScopeError'

  constructor(
    what: string,
    readonly scopes: readonly string[],
  ) {
    super('TESSERA_INSUFFICIENT_SCOPE', `Forbidden: ${what} needs the scope ${scopes.join(' ')}.`, {
      requiredScopes: [...scopes],
    })
  }
}

const NO_SCOPES: readonly string[] = Object.freeze([])

/** Checks a registration's `scopes` option once; the frozen list the checks below read. */
export function registeredScopes(scopes: unknown, label: string): readonly string[] {
  if (scopes === undefined) return NO_SCOPES
  if (
    !Array.isArray(scopes) ||
    !scopes.every((s) => typeof s === 'string' && /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s))
  )
    throw new TypeError(
      `${label}: scopes must be an array of scope tokens (no spaces, quotes or backslashes).`,
    )
  return Object.freeze([...new Set(scopes as string[])])
}

/** Whether `auth` holds every one of `required`. */
export function permits(required: readonly string[], auth: AuthInfo | undefined): boolean {
  if (required.length === 0) return true
  const granted = auth?.scopes
  if (granted === undefined) return false
  return required.every((scope) => granted.includes(scope))
}

/** Throws InsufficientScopeError when `auth` lacks one of `required`. */
export function requireScopes(required: readonly string[], auth: AuthInfo | undefined, what: string): void {
  if (!permits(required, auth)) throw new InsufficientScopeError(what, required)
}

/**
 * A list as the caller sees it, with its cache hint. With `listOnlyPermitted`, a list that left
 * something out depends on the caller's token, so it is private to the caller.
 */
export function listed(
  listOnlyPermitted: boolean,
  all: readonly JsonObject[],
  permitted: () => readonly JsonObject[],
  hint: CacheHint,
): [readonly JsonObject[], CacheHint] {
  if (!listOnlyPermitted) return [all, hint]
  const items = permitted()
  return [items, items === all ? hint : privateHint(hint)]
}

/** The cache hint of an answer only callers with `scopes` get: private whatever it said. */
export function scopedHint(scopes: readonly string[], hint: CacheHint): CacheHint {
  return scopes.length === 0 ? hint : privateHint(hint)
}

function privateHint(hint: CacheHint): CacheHint {
  return hint.cacheScope === 'private' ? hint : { ttlMs: hint.ttlMs, cacheScope: 'private' }
}
