/**
 * @module dpop-proof
 * Verifies a DPoP proof: the client signs each request with a key of its own, and an access token
 * bound to that key is worthless without a fresh proof for this very request. Each check answers
 * one question (is the proof well formed, signed by the key it carries, made for this method and
 * URL, recent, about this token, by the key the token is bound to), and a refusal names which one
 * failed, never what the proof or the token contained.
 *
 * Single use (a jti seen before) is not checked here: that needs a store shared by every instance
 * (see dpop-replay). The caller records `proofKey(jkt, jti)` after this check passes.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { JWK, JWTPayload } from 'jose'
import {
  base64url,
  calculateJwkThumbprint,
  decodeProtectedHeader,
  EmbeddedJWK,
  errors,
  jwtVerify,
} from 'jose'

/** Why a DPoP proof was refused: the `reason` of a `DpopRejectedError`, for logs and metrics. */
export type DpopRejection =
  | 'malformed'
  | 'wrong-type'
  | 'algorithm-not-allowed'
  | 'private-key'
  | 'bad-signature'
  | 'wrong-method'
  | 'wrong-url'
  | 'stale'
  | 'issued-in-future'
  | 'wrong-token-hash'
  | 'key-mismatch'
  | 'missing-nonce'
  | 'wrong-nonce'
  | 'replayed'

/**
 * A proof was refused. The message names the reason only; never the proof, the token or any of
 * their parts, so the error can be logged or answered as is. No `cause` is attached either: the
 * library's errors carry the decoded claims, which a logger would print.
 */
export class DpopRejectedError extends Error {
  override readonly name = 'DpopRejectedError'

  constructor(readonly reason: DpopRejection) {
    super(`DPoP proof rejected: ${reason}`)
  }
}

/** Decides whether a server-issued nonce is still good; `dpopNonces()` gives one. */
export interface DpopNonceCheck {
  accepts(nonce: string): boolean
}

export interface DpopProofCheck {
  /** The DPoP header value (exactly one; the caller ensures it). */
  proof: string
  /** The HTTP method of the request; `htm` must equal it exactly, as methods are case-sensitive. */
  method: string
  /**
   * The absolute request URL. `htu` must equal it once the query and fragment are removed from both
   * and both are normalised (scheme and host case, default port), so a proxy's or a client's
   * harmless spelling differences do not refuse an honest proof.
   */
  url: string
  /** The access token presented with the proof; `ath` must be the hash of exactly this token. */
  accessToken: string
  /**
   * The token's `cnf.jkt`. When given, the proof's key must be the one the token is bound to.
   * Whether a token without a binding may be used with a proof at all is the caller's decision.
   */
  expectedJkt: string | undefined
  /** Allowed `alg` values. `none` and the HMAC algorithms are refused even when listed: a proof must be signed with a private key only the client holds. */
  algorithms: string[]
  /** How old (by `iat`) a proof may be, in seconds. */
  maxAgeSec: number
  /** How far in the future `iat` may be, in seconds, for clients whose clocks run ahead. */
  clockToleranceSec: number
  /** The current time, in milliseconds since the epoch. */
  now: number
  /**
   * When the server requires a nonce: the proof's `nonce` claim must equal this string, or be
   * accepted by this check (which lets a rotating nonce stay good for a grace window).
   */
  nonce?: string | DpopNonceCheck | undefined
}

export interface VerifiedDpopProof {
  /** SHA-256 JWK thumbprint of the proof's key, base64url. */
  jkt: string
  jti: string
  /** Seconds since the epoch. */
  iat: number
}

/** Longer headers are refused before any parsing, so an attacker cannot make the server decode megabytes. */
export const MAX_DPOP_PROOF_LENGTH = 8 * 1024
/** Longer jtis are refused: a client needs far fewer characters for a unique identifier. */
export const MAX_DPOP_JTI_LENGTH = 256

/**
 * JWK members that only a private or secret key has (RSA, EC/OKP, AKP, oct). A proof carrying one
 * has leaked its key to every party on the way, so it proves nothing.
 */
const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k', 'priv'] as const

/** `none` proves nothing; an HMAC key would be shared with the verifier, so anyone holding it could sign. */
const isForbiddenAlgorithm = (alg: string): boolean => alg === 'none' || alg.startsWith('HS')

/**
 * How long after its first acceptance a proof with these settings can still be accepted, in
 * milliseconds: the jti must be remembered at least this long. A proof is accepted while
 * `now - maxAge <= iat <= now + tolerance`; the earliest moment is `iat - tolerance`, the last
 * `iat + maxAge`.
 */
export function proofAcceptanceWindowMs(
  check: Pick<DpopProofCheck, 'maxAgeSec' | 'clockToleranceSec'>,
): number {
  return (check.maxAgeSec + check.clockToleranceSec) * 1000
}

/**
 * Verifies a proof for one request and returns the proof key's thumbprint, the jti and iat. Throws
 * DpopRejectedError when the proof must be refused, and TypeError or RangeError when the check's
 * own settings are wrong (a bug of the caller, not of the client).
 */
export async function verifyDpopProof(check: DpopProofCheck): Promise<VerifiedDpopProof> {
  const requestUrl = checkSettings(check)
  const { proof } = check
  if (typeof proof !== 'string' || proof.length === 0 || proof.length > MAX_DPOP_PROOF_LENGTH)
    throw new DpopRejectedError('malformed')

  const jwk = checkHeader(proof, check.algorithms)
  const payload = await verifySignature(proof, check)

  const { jti, htm, htu, iat, ath } = payload
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_DPOP_JTI_LENGTH)
    throw new DpopRejectedError('malformed')
  if (typeof htm !== 'string' || typeof htu !== 'string' || typeof ath !== 'string')
    throw new DpopRejectedError('malformed')
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new DpopRejectedError('malformed')

  if (htm !== check.method) throw new DpopRejectedError('wrong-method')
  const proofUrl = comparableUrl(htu)
  if (proofUrl === undefined) throw new DpopRejectedError('malformed')
  if (proofUrl !== requestUrl) throw new DpopRejectedError('wrong-url')

  const nowSec = check.now / 1000
  if (iat > nowSec + check.clockToleranceSec) throw new DpopRejectedError('issued-in-future')
  if (nowSec - iat > check.maxAgeSec) throw new DpopRejectedError('stale')

  if (!sameString(ath, accessTokenHash(check.accessToken))) throw new DpopRejectedError('wrong-token-hash')

  const jkt = await thumbprint(jwk)
  if (check.expectedJkt !== undefined && !sameString(jkt, check.expectedJkt))
    throw new DpopRejectedError('key-mismatch')

  if (check.nonce !== undefined) checkNonce(payload.nonce, check.nonce)

  return { jkt, jti, iat }
}

/** Returns the request URL in comparable form; throws on settings no request could be checked with. */
function checkSettings(check: DpopProofCheck): string {
  if (!Array.isArray(check.algorithms)) throw new TypeError('algorithms must be an array of algorithm names')
  if (!Number.isFinite(check.maxAgeSec) || check.maxAgeSec <= 0)
    throw new RangeError('maxAgeSec must be a positive number')
  if (!Number.isFinite(check.clockToleranceSec) || check.clockToleranceSec < 0)
    throw new RangeError('clockToleranceSec must be a number >= 0')
  if (!Number.isFinite(check.now)) throw new RangeError('now must be a time in milliseconds')
  if (typeof check.accessToken !== 'string' || check.accessToken.length === 0)
    throw new TypeError('accessToken must be a non-empty string')
  const requestUrl = comparableUrl(check.url)
  if (requestUrl === undefined) throw new TypeError('url must be the absolute URL of the request')
  return requestUrl
}

/**
 * The checks that need no key: the type, the algorithm and the embedded key's kind. They run
 * before the signature so a proof that could never be accepted costs no cryptography.
 */
function checkHeader(proof: string, algorithms: readonly string[]): JWK {
  let header: ReturnType<typeof decodeProtectedHeader>
  try {
    header = decodeProtectedHeader(proof)
  } catch {
    throw new DpopRejectedError('malformed')
  }
  if (header.typ !== 'dpop+jwt') throw new DpopRejectedError('wrong-type')
  const { alg, jwk } = header
  if (typeof alg !== 'string') throw new DpopRejectedError('malformed')
  if (isForbiddenAlgorithm(alg) || !algorithms.includes(alg))
    throw new DpopRejectedError('algorithm-not-allowed')
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) throw new DpopRejectedError('malformed')
  if (jwk.kty === 'oct' || PRIVATE_JWK_MEMBERS.some((member) => Object.hasOwn(jwk, member)))
    throw new DpopRejectedError('private-key')
  return jwk
}

/** Verifies the signature with the embedded key and returns the claims; maps the library's failures to reasons. */
async function verifySignature(proof: string, check: DpopProofCheck): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(proof, EmbeddedJWK, {
      algorithms: check.algorithms.filter((alg) => !isForbiddenAlgorithm(alg)),
      // The library also checks `exp` and `nbf` when a proof carries them; against the same clock.
      currentDate: new Date(check.now),
      clockTolerance: check.clockToleranceSec,
    })
    return payload
  } catch (error) {
    throw new DpopRejectedError(reasonFor(error))
  }
}

function reasonFor(error: unknown): DpopRejection {
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'bad-signature'
  if (error instanceof errors.JOSEAlgNotAllowed) return 'algorithm-not-allowed'
  if (error instanceof errors.JWTExpired) return 'stale'
  if (
    error instanceof errors.JWTClaimValidationFailed &&
    error.claim === 'nbf' &&
    error.reason === 'check_failed'
  )
    return 'issued-in-future'
  // Anything else (an unusable key, bad base64url, a payload that is not a JSON object, a
  // critical header the library does not know) means the proof cannot be understood.
  return 'malformed'
}

async function thumbprint(jwk: JWK): Promise<string> {
  try {
    return await calculateJwkThumbprint(jwk, 'sha256')
  } catch {
    // The key verified the signature, so this is a key the library can use but not name.
    throw new DpopRejectedError('malformed')
  }
}

/**
 * The URL without query and fragment, as the WHATWG parser normalises it (lower-case scheme and
 * host, no default port, dot segments resolved); undefined when it is not an absolute URL.
 */
function comparableUrl(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined
  const url = new URL(value)
  url.search = ''
  url.hash = ''
  return url.href
}

/**
 * base64url(SHA-256(ASCII(token))). A token outside printable ASCII has no ASCII encoding, so no
 * proof can be bound to it: its hash is left empty and never matches.
 */
function accessTokenHash(token: string): string {
  if (/[^\x21-\x7e]/.test(token)) return ''
  return base64url.encode(createHash('sha256').update(token, 'ascii').digest())
}

function checkNonce(claim: unknown, expected: string | DpopNonceCheck): void {
  if (claim === undefined) throw new DpopRejectedError('missing-nonce')
  if (typeof claim !== 'string') throw new DpopRejectedError('wrong-nonce')
  const good = typeof expected === 'string' ? sameString(claim, expected) : expected.accepts(claim)
  if (!good) throw new DpopRejectedError('wrong-nonce')
}

/**
 * Compares in constant time, so a mismatch's position cannot be learnt by timing; only the length
 * (not secret: thumbprints and hashes have a fixed one) decides early.
 */
function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8')
  const right = Buffer.from(b, 'utf8')
  return left.length === right.length && timingSafeEqual(left, right)
}
