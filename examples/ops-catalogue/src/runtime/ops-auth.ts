/**
 * @module ops-auth
 * The authenticated mode: an OAuth resource server for the configured issuer, audience and keys.
 * DPoP proofs are recorded in the server's own single-use store, so a proof replayed on another
 * worker or host is refused like a second rollback would be.
 */
import { jwtVerifier, oauthResourceServer } from '@tessera/auth'
import type { HttpAuthenticator } from '@tessera/core/http'
import type { ReplayStore } from '@tessera/core/ports'
import type { AuthChoice } from '../cli.ts'
import { OAUTH_SCOPES } from '../server/ops-deps.ts'

/** `replay` is read on each proof: a worker opens its store after this is built. */
export function opsAuth(choice: AuthChoice, replay: () => ReplayStore): HttpAuthenticator {
  const jwks = /^https?:\/\//.test(choice.jwks) ? new URL(choice.jwks) : choice.jwks
  return oauthResourceServer({
    resource: choice.audience,
    authorizationServers: [choice.issuer],
    scopesSupported: [...OAUTH_SCOPES.read!, ...OAUTH_SCOPES.rollback!],
    verifier: jwtVerifier({ issuer: choice.issuer, audience: choice.audience, jwks }),
    dpop: choice.dpop ? { replay: { claim: (...args) => replay().claim(...args) } } : undefined,
    resourceName: 'Ops catalogue',
  })
}
