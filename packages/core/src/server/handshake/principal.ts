/**
 * @module principal
 * The identity a handshake-era session is bound to. A leaked session id must not be usable by
 * another principal, so every request's principal is compared with the one that opened it.
 */
import { createHash } from 'node:crypto'
import type { AuthInfo } from '../../security/request-state/binding.ts'

export function principalKey(auth: AuthInfo | undefined): string {
  if (auth === undefined) return 'anonymous'
  const parts = JSON.stringify([auth.issuer ?? null, auth.clientId ?? null, auth.subject ?? null])
  return createHash('sha256').update(parts).digest('base64url')
}
