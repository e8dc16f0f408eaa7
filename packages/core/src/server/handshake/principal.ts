/**
 * @module principal
 * The identity a handshake-era session is bound to. A leaked session id must not be usable by
 * another principal, so every request's principal is compared with the one that opened it.
 */

import { sha256Base64url } from '#crypto'
import type { AuthInfo } from '../../security/request-state/binding.ts'

/**
 * The key of `auth`: issuer, client and subject (never the token, so a refresh keeps the session).
 * Undefined for an authenticated caller without a subject: two users of one client must never
 * share a session, so such a caller gets none.
 */
export function principalKey(auth: AuthInfo | undefined): string | undefined {
  if (auth === undefined) return 'anonymous'
  if (typeof auth.subject !== 'string' || auth.subject === '') return undefined
  const parts = JSON.stringify([auth.issuer ?? null, auth.clientId ?? null, auth.subject ?? null])
  return sha256Base64url(parts)
}
