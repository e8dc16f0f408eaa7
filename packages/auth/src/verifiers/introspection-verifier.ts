/**
 * @module introspection-verifier
 * Verifies opaque access tokens by asking the authorization server's introspection endpoint. The
 * server's answer is trusted for what it says about the token; this module still checks that the
 * token is meant for this resource and within its times, because an introspection endpoint
 * answers for every token its server issued, whatever resource it was issued for.
 *
 * Answers are cached (see `introspection-cache`), and verifications of the same token that
 * overlap share one request. Failures to get an answer are never cached: the next request asks
 * again.
 */
import { assertKnownOptions, type OptionNames } from '@tessera/core/ports'
import { SuccessStatus } from '@tessera/core/protocol'
import { type ExpiringCache, expiringCache, tokenKey } from './introspection-cache.ts'
import { secureUrl } from './secure-url.ts'
import {
  MAX_TOKEN_LENGTH,
  TokenRejectedError,
  type TokenVerifier,
  type VerifiedToken,
} from './token-verifier.ts'
import { verifiedToken } from './verified-token.ts'

/** Where `introspectionVerifier` asks about tokens (RFC 7662), as which client, and what it accepts. */
export interface IntrospectionVerifierOptions {
  /** The authorization server's introspection endpoint. */
  endpoint: URL | string
  /** This server's client id at the introspection endpoint (HTTP Basic authentication). */
  clientId: string
  /** This server's client secret at the introspection endpoint (HTTP Basic authentication). */
  clientSecret: string
  /** The answer's `aud` (string or array) must contain it; an answer without `aud` is refused. */
  audience: string
  /** When given, an answer's `iss` must equal it. The verified issuer is the answer's `iss`, else this, else the endpoint's origin. */
  issuer?: string
  /**
   * Longest time an answer is cached (default 60 s); never beyond the token's own exp. Inactive
   * answers are cached for at most 5 s, so a burst of bad tokens does not hammer the server. The
   * cache is keyed by the SHA-256 of the token, never the token itself.
   */
  cacheTtlMs?: number
  /** Answers cached at most (default 10,000); the oldest goes first. */
  maxCacheEntries?: number
  /** Time allowed for the whole exchange, answer body included (default 5 s). */
  timeoutMs?: number
  /** The clock, in ms since epoch (tests fix it). Default Date.now. */
  now?: () => number
  /** Allowed clock skew for the answer's `exp` and `nbf`, in seconds; default 30, at most 300. */
  clockToleranceSec?: number
}

const INTROSPECTION_OPTION_NAMES = {
  endpoint: true,
  clientId: true,
  clientSecret: true,
  audience: true,
  issuer: true,
  cacheTtlMs: true,
  maxCacheEntries: true,
  timeoutMs: true,
  now: true,
  clockToleranceSec: true,
} as const satisfies OptionNames<IntrospectionVerifierOptions>

/** An answer the server gave: `active` is a boolean, the rest unchecked until used. */
type Answer = Record<string, unknown> & { active: boolean }

const INACTIVE_TTL_MS = 5_000
const MAX_ANSWER_BYTES = 64 * 1024
const MAX_CLOCK_TOLERANCE_SEC = 300

/** A verifier asking `options.endpoint` about each token, for resource `options.audience`. */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  assertKnownOptions(options, INTROSPECTION_OPTION_NAMES, 'introspectionVerifier', { required: true })
  const endpoint = endpointUrl(options.endpoint)
  const authorization = basicAuthorization(
    nonEmptyString(options.clientId, 'clientId'),
    nonEmptyString(options.clientSecret, 'clientSecret'),
  )
  const audience = nonEmptyString(options.audience, 'audience')
  const expectedIssuer = options.issuer === undefined ? undefined : nonEmptyString(options.issuer, 'issuer')
  const cacheTtlMs = integerAtLeast(options.cacheTtlMs ?? 60_000, 0, 'cacheTtlMs')
  const maxCacheEntries = integerAtLeast(options.maxCacheEntries ?? 10_000, 1, 'maxCacheEntries')
  const timeoutMs = integerAtLeast(options.timeoutMs ?? 5_000, 1, 'timeoutMs')
  const tolerance = options.clockToleranceSec ?? 30
  if (!Number.isFinite(tolerance) || tolerance < 0 || tolerance > MAX_CLOCK_TOLERANCE_SEC) {
    throw new RangeError(`clockToleranceSec must be between 0 and ${MAX_CLOCK_TOLERANCE_SEC}.`)
  }
  const now = options.now ?? Date.now
  const cache: ExpiringCache<Answer> = expiringCache(maxCacheEntries, now)
  const inFlight = new Map<string, Promise<Answer>>()

  /** Until when `answer` may be reused: the TTL, shortened for inactive tokens and by `exp`. */
  function expiryOf(answer: Answer, fetchedAt: number): number {
    if (!answer.active) return fetchedAt + Math.min(cacheTtlMs, INACTIVE_TTL_MS)
    const exp = answer['exp']
    const until = fetchedAt + cacheTtlMs
    return typeof exp === 'number' && Number.isFinite(exp) ? Math.min(until, exp * 1000) : until
  }

  function answerFor(key: string, token: string): Promise<Answer> {
    const pending = inFlight.get(key)
    if (pending !== undefined) return pending
    const request = introspect(endpoint, authorization, token, timeoutMs)
      .then((answer) => {
        cache.set(key, answer, expiryOf(answer, now()))
        return answer
      })
      .finally(() => inFlight.delete(key))
    inFlight.set(key, request)
    return request
  }

  /** Checked on every use, cached or not: a cached answer ages with the clock. */
  function evaluate(answer: Answer): VerifiedToken {
    if (!answer.active) throw new TokenRejectedError('inactive')
    const nowSec = Math.floor(now() / 1000)
    const nbf = numericDate(answer['nbf'])
    if (nbf !== undefined && nbf > nowSec + tolerance) throw new TokenRejectedError('not-yet-valid')
    const exp = numericDate(answer['exp'])
    if (exp !== undefined && exp <= nowSec - tolerance) throw new TokenRejectedError('expired')
    const iss = answer['iss']
    if (iss !== undefined && (typeof iss !== 'string' || iss === ''))
      throw new TokenRejectedError('malformed')
    if (expectedIssuer !== undefined && iss !== undefined && iss !== expectedIssuer) {
      throw new TokenRejectedError('wrong-issuer')
    }
    const token = verifiedToken(answer, iss ?? expectedIssuer ?? endpoint.origin)
    if (!token.audience.includes(audience)) throw new TokenRejectedError('wrong-audience')
    return token
  }

  return {
    async verify(token: string): Promise<VerifiedToken> {
      if (typeof token !== 'string' || token === '' || token.length > MAX_TOKEN_LENGTH) {
        throw new TokenRejectedError('malformed')
      }
      const key = await tokenKey(token)
      return evaluate(cache.get(key) ?? (await answerFor(key, token)))
    },
  }
}

/** The server's answer, or 'verifier-unavailable' when there is none to use. */
async function introspect(
  endpoint: URL,
  authorization: string,
  token: string,
  timeoutMs: number,
): Promise<Answer> {
  let response: Response
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        authorization,
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      // A redirect would resend the token and the credentials somewhere not configured.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch (error) {
    // Network and timeout errors name the endpoint, never the request body.
    throw new TokenRejectedError('verifier-unavailable', { cause: error })
  }
  if (response.status !== SuccessStatus.ok) {
    await response.body?.cancel().catch(() => {})
    throw new TokenRejectedError('verifier-unavailable')
  }
  let body: unknown
  try {
    // An answer is a few hundred bytes: a larger one is not read into memory.
    if (Number(response.headers.get('content-length')) > MAX_ANSWER_BYTES) throw new RangeError('too large')
    const text = await response.text()
    if (text.length > MAX_ANSWER_BYTES) throw new RangeError('too large')
    body = JSON.parse(text)
  } catch {
    // No cause: a JSON parse error quotes the body, which could echo the token.
    throw new TokenRejectedError('verifier-unavailable')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new TokenRejectedError('verifier-unavailable')
  }
  if (typeof (body as { active?: unknown }).active !== 'boolean')
    throw new TokenRejectedError('verifier-unavailable')
  return body as Answer
}

function numericDate(value: unknown): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TokenRejectedError('malformed')
  return value
}

/**
 * OAuth has client credentials form-urlencoded before they go into Basic authentication, so a
 * secret holding ':' or non-ASCII characters survives the trip.
 */
function basicAuthorization(clientId: string, clientSecret: string): string {
  return `Basic ${btoa(`${formEncode(clientId)}:${formEncode(clientSecret)}`)}`
}

function formEncode(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1)
}

function endpointUrl(endpoint: URL | string): URL {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    throw new TypeError('endpoint must be an absolute URL.')
  }
  return secureUrl(url, 'endpoint')
}

function nonEmptyString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string.`)
  return value
}

function integerAtLeast(value: number, least: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < least)
    throw new RangeError(`${name} must be an integer >= ${least}.`)
  return value
}
