/**
 * @module authorization-header
 * Reads the credentials of a request: `Authorization: Bearer <token>` or `DPoP <token>`, and
 * nothing else. A token anywhere else (the query string) is refused, never used.
 */
import type { HttpAuthRequest } from '@tessera/core/http'

export type Credentials =
  | { kind: 'none' }
  | { kind: 'malformed'; problem: string }
  | { kind: 'other-scheme' }
  | { kind: 'token'; scheme: 'Bearer' | 'DPoP'; token: string }

/** RFC 6750 b64token; the length bound keeps a huge header from reaching a verifier. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/
const MAX_TOKEN_LENGTH = 16 * 1024

export function credentialsOf(request: HttpAuthRequest): Credentials {
  if (hasQueryToken(request.target))
    return { kind: 'malformed', problem: 'an access token in the query string is not accepted' }
  if (request.headers.isRepeated('authorization'))
    return { kind: 'malformed', problem: 'more than one Authorization header' }
  const value = request.headers.get('authorization')
  if (value === undefined) return { kind: 'none' }
  const space = value.indexOf(' ')
  const scheme = (space === -1 ? value : value.slice(0, space)).toLowerCase()
  if (scheme !== 'bearer' && scheme !== 'dpop') return { kind: 'other-scheme' }
  const token = space === -1 ? '' : value.slice(space + 1).trim()
  if (token === '' || token.length > MAX_TOKEN_LENGTH || !B64TOKEN.test(token))
    return { kind: 'malformed', problem: 'the Authorization header is not a valid token' }
  return { kind: 'token', scheme: scheme === 'bearer' ? 'Bearer' : 'DPoP', token }
}

function hasQueryToken(target: string): boolean {
  const q = target.indexOf('?')
  if (q === -1) return false
  return new URLSearchParams(target.slice(q + 1)).has('access_token')
}
