/**
 * @module jwt-verifier
 * Verifies self-contained (JWT) access tokens locally against the issuer's public keys: the
 * signature with an asymmetric algorithm from a fixed allow-list, then issuer, audience, type and
 * times. jose does all the cryptography; this module chooses what to require and turns jose's
 * failures into reasons that never carry the token or its claims.
 */
import { assertKnownOptions, type OptionNames } from '@tessera/core/ports'
import { errors, type JWTPayload, type JWTVerifyGetKey, type JWTVerifyOptions, jwtVerify } from 'jose'
import { type JwksOption, KeySourceError, keySource } from './jwks-source.ts'
import {
  MAX_TOKEN_LENGTH,
  TokenRejectedError,
  type TokenRejection,
  type TokenVerifier,
  type VerifiedToken,
} from './token-verifier.ts'
import { verifiedToken } from './verified-token.ts'

/** Which JWT access tokens (RFC 9068) `jwtVerifier` accepts, and where it finds the issuer's keys. */
export interface JwtVerifierOptions {
  /** Exact match of `iss`. */
  issuer: string
  /** `aud` (string or array) must contain it exactly. */
  audience: string
  /** URL (remote JWKS, fetched with caching), a JWKS object, or a path of a JSON file holding one (read once at construction, synchronously, clear error if unreadable/invalid). */
  jwks: URL | { keys: unknown[] } | string
  /**
   * Accepted signature algorithms; default RS256 RS384 RS512 PS256 PS384 PS512 ES256 ES384
   * ES512 EdDSA. Asymmetric only: with no HMAC algorithm allowed, a token "signed" with a public
   * key used as an HMAC secret cannot verify, and 'none' never can.
   */
  algorithms?: string[]
  /** Allowed clock skew for `exp`, `nbf` and `iat`, in seconds; default 30, at most 300. */
  clockToleranceSec?: number
  /** Required `typ` header, e.g. 'at+jwt' (RFC 9068); compare case-insensitively, also accept 'application/at+jwt'. Default: not checked. */
  type?: string
  /** Claims that must be present, besides `exp`, `iss` and `aud`, which always are. */
  requiredClaims?: string[]
  /** The clock, in ms since epoch (tests fix it). Default Date.now. */
  now?: () => number
  /** Remote JWKS: minimum interval between two fetches triggered by an unknown kid (default 30 s). */
  jwksCooldownMs?: number
  /** Remote JWKS: how long fetched keys are used before they are fetched again (default 10 min). */
  jwksCacheMaxAgeMs?: number
  /** Remote JWKS fetch timeout (default 5 s). */
  jwksTimeoutMs?: number
}

const JWT_VERIFIER_OPTION_NAMES = {
  issuer: true,
  audience: true,
  jwks: true,
  algorithms: true,
  clockToleranceSec: true,
  type: true,
  requiredClaims: true,
  now: true,
  jwksCooldownMs: true,
  jwksCacheMaxAgeMs: true,
  jwksTimeoutMs: true,
} as const satisfies OptionNames<JwtVerifierOptions>

const DEFAULT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
]
/** Every asymmetric JWS algorithm jose verifies; anything else is a typo or a symmetric one. */
const ASYMMETRIC_ALGORITHMS = new Set([
  ...DEFAULT_ALGORITHMS,
  'Ed25519',
  'ML-DSA-44',
  'ML-DSA-65',
  'ML-DSA-87',
])
const MAX_CLOCK_TOLERANCE_SEC = 300
/** Three base64url segments; the signature may be empty so that an unsigned token is refused by name. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/

/** A verifier of JWT access tokens issued by `options.issuer` for `options.audience`. */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  assertKnownOptions(options, JWT_VERIFIER_OPTION_NAMES, 'jwtVerifier', { required: true })
  const issuer = nonEmptyString(options.issuer, 'issuer')
  const audience = nonEmptyString(options.audience, 'audience')
  const algorithms = checkedAlgorithms(options.algorithms ?? DEFAULT_ALGORITHMS)
  const tolerance = options.clockToleranceSec ?? 30
  if (!Number.isFinite(tolerance) || tolerance < 0 || tolerance > MAX_CLOCK_TOLERANCE_SEC) {
    throw new RangeError(`clockToleranceSec must be between 0 and ${MAX_CLOCK_TOLERANCE_SEC}.`)
  }
  const cooldownMs = nonNegativeInteger(options.jwksCooldownMs ?? 30_000, 'jwksCooldownMs')
  const cacheMaxAgeMs = nonNegativeInteger(options.jwksCacheMaxAgeMs ?? 600_000, 'jwksCacheMaxAgeMs')
  if (cacheMaxAgeMs < cooldownMs) throw new RangeError('jwksCacheMaxAgeMs must be at least jwksCooldownMs.')
  const timeoutMs = nonNegativeInteger(options.jwksTimeoutMs ?? 5_000, 'jwksTimeoutMs')
  if (timeoutMs === 0) throw new RangeError('jwksTimeoutMs must be a positive integer.')
  if (options.type !== undefined) nonEmptyString(options.type, 'type')
  const extraClaims = options.requiredClaims ?? []
  if (
    !Array.isArray(extraClaims) ||
    !extraClaims.every((claim) => typeof claim === 'string' && claim !== '')
  ) {
    throw new TypeError('requiredClaims must be an array of claim names.')
  }
  const requiredClaims = ['exp', ...extraClaims]
  const now = options.now ?? Date.now
  const getKey = keySource(options.jwks satisfies JwksOption, { cooldownMs, cacheMaxAgeMs, timeoutMs })

  return {
    async verify(token: string): Promise<VerifiedToken> {
      if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !COMPACT_JWS.test(token)) {
        throw new TokenRejectedError('malformed')
      }
      const nowMs = now()
      const verifyOptions: JWTVerifyOptions = {
        issuer,
        audience,
        algorithms,
        clockTolerance: tolerance,
        requiredClaims,
        currentDate: new Date(nowMs),
        ...(options.type === undefined ? {} : { typ: options.type }),
      }
      let payload: JWTPayload
      try {
        payload = await verifyWithCandidates(token, getKey, verifyOptions)
      } catch (error) {
        throw rejectionFor(error)
      }
      // jose checks `iat` against the clock only together with a maximum token age; a token
      // minted in the future means a skewed or compromised issuer either way.
      if (typeof payload.iat === 'number' && payload.iat > Math.floor(nowMs / 1000) + tolerance) {
        throw new TokenRejectedError('issued-in-future')
      }
      return verifiedToken(payload, issuer)
    },
  }
}

/**
 * A token without a `kid` may match several keys of the set (during a rotation, typically):
 * jose then hands over the candidates, and the token is good if one of them verifies it.
 */
async function verifyWithCandidates(
  token: string,
  getKey: JWTVerifyGetKey,
  verifyOptions: JWTVerifyOptions,
): Promise<JWTPayload> {
  try {
    return (await jwtVerify(token, getKey, verifyOptions)).payload
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error
    for await (const key of error) {
      try {
        return (await jwtVerify(token, key, verifyOptions)).payload
      } catch (inner) {
        if (!(inner instanceof errors.JWSSignatureVerificationFailed)) throw inner
      }
    }
    throw new errors.JWSSignatureVerificationFailed()
  }
}

/**
 * The reason for a jose failure. jose's errors may hold the claims set and its messages quote
 * claim names; only the error code is kept, in a fresh cause, so nothing of the token travels on.
 */
function rejectionFor(error: unknown): TokenRejectedError {
  if (error instanceof TokenRejectedError) return error
  const code = error instanceof errors.JOSEError ? error.code : errorName(error)
  return new TokenRejectedError(reasonFor(error), { cause: new Error(code) })
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : 'unknown error'
}

function reasonFor(error: unknown): TokenRejection {
  if (error instanceof KeySourceError) return 'verifier-unavailable'
  if (error instanceof errors.JWTExpired) return 'expired'
  if (error instanceof errors.JWTClaimValidationFailed) return claimReason(error.claim, error.reason)
  if (error instanceof errors.JOSEAlgNotAllowed) return 'algorithm-not-allowed'
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return 'unknown-key'
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'bad-signature'
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    // An unrecognised `crit` extension: the token asks for processing nobody here does.
    error instanceof errors.JOSENotSupported
  ) {
    return 'malformed'
  }
  // Timeouts, fetch failures, a key that would not import: nothing the token could fix.
  return 'verifier-unavailable'
}

function claimReason(claim: string, reason: string): TokenRejection {
  if (reason === 'missing') return 'missing-claim'
  if (reason !== 'check_failed') return 'malformed'
  switch (claim) {
    case 'nbf':
      return 'not-yet-valid'
    case 'iat':
      return 'issued-in-future'
    case 'iss':
      return 'wrong-issuer'
    case 'aud':
      return 'wrong-audience'
    case 'typ':
      return 'wrong-type'
    default:
      return 'malformed'
  }
}

function checkedAlgorithms(algorithms: string[]): string[] {
  if (!Array.isArray(algorithms) || algorithms.length === 0) {
    throw new TypeError('algorithms must list at least one algorithm.')
  }
  for (const algorithm of algorithms) {
    if (typeof algorithm !== 'string' || algorithm.toLowerCase() === 'none' || /^HS/i.test(algorithm)) {
      throw new TypeError(
        `Algorithm ${String(algorithm)} is not allowed: only asymmetric signatures are accepted.`,
      )
    }
    if (!ASYMMETRIC_ALGORITHMS.has(algorithm))
      throw new TypeError(`Unknown signature algorithm ${algorithm}.`)
  }
  return [...algorithms]
}

function nonEmptyString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string.`)
  return value
}

function nonNegativeInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be an integer >= 0.`)
  return value
}
