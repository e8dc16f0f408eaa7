/**
 * @module remote-jwks
 * A remote JWKS that can never become a fetch storm against the authorization server.
 *
 * jose's `createRemoteJWKSet` already merges concurrent reloads into one request, and after a
 * successful fetch it refetches for an unknown `kid` only once the cooldown has passed. But the
 * cooldown starts from the last *successful* fetch: after a failed one (endpoint down, non-200,
 * bad JSON, timeout) every following request fetches again, so steady traffic of unknown or even
 * known kids turns into one fetch per request, exactly when the server is struggling. The fetch
 * given to jose here closes that gap: no request reaches the network less than one cooldown
 * after the previous attempt, whatever its outcome. Inside that window a reload fails at once,
 * which the verifier reports as 'verifier-unavailable'.
 */
import { createRemoteJWKSet, customFetch, type FetchImplementation, type JWTVerifyGetKey } from 'jose'

export interface RemoteJwksOptions {
  /** Least time between two attempts to fetch the set, whatever triggers them. */
  cooldownMs: number
  /** Age after which a successfully fetched set is fetched again. At least `cooldownMs`. */
  cacheMaxAgeMs: number
  timeoutMs: number
}

/** Why a reload failed without a request: the previous attempt was less than one cooldown ago. */
export class JwksCoolingDownError extends Error {
  override readonly name = 'JwksCoolingDownError'
}

/** A jose key resolver backed by `url`, fetching at most once per cooldown. */
export function remoteJwks(url: URL, options: RemoteJwksOptions): JWTVerifyGetKey {
  let lastAttemptAt = Number.NEGATIVE_INFINITY
  const gatedFetch: FetchImplementation = async (input, init) => {
    // Date.now, as jose's own cooldown and cache age use it: the two windows must agree.
    const now = Date.now()
    if (now < lastAttemptAt + options.cooldownMs) throw new JwksCoolingDownError('JWKS fetched too recently.')
    lastAttemptAt = now
    return fetch(input, init)
  }
  return createRemoteJWKSet(url, {
    cooldownDuration: options.cooldownMs,
    cacheMaxAge: options.cacheMaxAgeMs,
    timeoutDuration: options.timeoutMs,
    [customFetch]: gatedFetch,
  })
}
