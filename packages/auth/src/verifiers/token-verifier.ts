/**
 * @module token-verifier
 * The contract every access-token verifier meets: one promise that either resolves with what the
 * token says, once it has been proved genuine and meant for this resource, or rejects with a
 * `TokenRejectedError` naming why. Callers turn the reason into a `WWW-Authenticate` answer and
 * never need to know which verifier ran.
 */

/** What a verified access token says. */
export interface VerifiedToken {
  /** `iss`: who issued the token. */
  issuer: string
  /** `sub`: whom the token speaks for; undefined for a token of the client itself. */
  subject: string | undefined
  /** `client_id`, else `azp`: the client the token was issued to. */
  clientId: string | undefined
  /** From `scope` (space-separated) or `scp` (an array, or a space-separated string); [] if none. */
  scopes: string[]
  /** `aud`, always as a list. */
  audience: string[]
  /** Epoch seconds. */
  expiresAt: number | undefined
  /** RFC 9449 confirmation: SHA-256 JWK thumbprint of the key the token is bound to (cnf.jkt). */
  jkt: string | undefined
  /** Every claim, as the issuer stated it; a copy, so changing it changes nothing else. */
  claims: Record<string, unknown>
}

/**
 * Checks an access token: `jwtVerifier()`, `introspectionVerifier()`, or your own object with a
 * `verify` method.
 */
export interface TokenVerifier {
  /** Resolves with what a genuine token meant for this resource says; rejects with a TokenRejectedError. */
  verify(token: string): Promise<VerifiedToken>
}

/** Why a token was refused: the `reason` of a `TokenRejectedError`, for logs and metrics. */
export type TokenRejection =
  | 'malformed'
  | 'bad-signature'
  | 'unknown-key'
  | 'algorithm-not-allowed'
  | 'wrong-type'
  | 'expired'
  | 'not-yet-valid'
  | 'issued-in-future'
  | 'wrong-issuer'
  | 'wrong-audience'
  | 'missing-claim'
  | 'inactive'
  | 'verifier-unavailable'

/**
 * Longest token any verifier looks at. Real access tokens are a few kilobytes at most; refusing
 * larger ones before parsing bounds the work an unauthenticated caller can ask for.
 */
export const MAX_TOKEN_LENGTH = 16 * 1024

/** Thrown by every verifier. The message names the reason only: it never contains the token or any of its parts. */
export class TokenRejectedError extends Error {
  override readonly name = 'TokenRejectedError'

  constructor(
    readonly reason: TokenRejection,
    options?: { cause?: unknown },
  ) {
    super(`Access token rejected: ${reason}.`, options)
  }
}
