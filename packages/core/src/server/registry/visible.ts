/**
 * @module visible
 * What a list shows a caller when lists show only what it may use.
 */
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import { permits } from '../authorization.ts'

interface Scoped {
  readonly descriptor: JsonObject
  readonly scopes: readonly string[]
}

/**
 * The descriptors of the entries `auth` may use, or undefined when no entry needs a scope (the
 * caller then takes the registry's cached list).
 */
export function visibleTo(entries: Iterable<Scoped>, auth: AuthInfo | undefined): JsonObject[] | undefined {
  const all = [...entries]
  if (all.every((entry) => entry.scopes.length === 0)) return undefined
  return all.filter((entry) => permits(entry.scopes, auth)).map((entry) => entry.descriptor)
}
