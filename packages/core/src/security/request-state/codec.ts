/**
 * @module codec
 * Mints and opens requestState tokens. The token travels through the client and comes back
 * attacker-controlled, so opening never throws on it: every defect maps to one refusal reason,
 * for logs and metrics only (the wire answer stays one fixed error).
 *
 * Wire format (ASCII, every part strict unpadded base64url):
 * - sealed: `tss1.<keyId>.<iv ‖ ciphertext ‖ tag>`, AES-256-GCM, AAD = `tss1.<keyId>.`
 * - signed: `tsh1.<keyId>.<claims>.<mac>`, HMAC-SHA256 over `tsh1.<keyId>.<claims>`
 *
 * The protected claims are `{iat, exp, nonce, bind, payload}` (times in epoch ms). `bind` is an
 * HMAC of the nonce and the caller's binding string under a dedicated key: the binding is thus
 * covered by the AEAD or MAC yet never on the wire, and a mismatch can be told apart from a
 * forgery ('binding' vs 'mac') once the token has been authenticated.
 */

import { createCipheriv, createDecipheriv, createHmac, type KeyObject, timingSafeEqual } from 'node:crypto'
import { pooledRandomBytes } from '../random.ts'
import { decodeBase64url, encodeBase64url } from './base64url.ts'
import { createKeyRing, type DerivedKey, isValidKeyId, type StateKey } from './key-ring.ts'

/**
 * How a requestState is protected: `sealed` encrypts it, so the client cannot read what a handler
 * kept; `signed` only authenticates it, leaving it readable (and shorter).
 */
export type StateMode = 'sealed' | 'signed'

export interface RequestStateCodecOptions {
  /** The first seals or signs, all open. */
  keys: readonly StateKey[]
  /** Default 'sealed' (confidential); 'signed' leaves the claims readable. */
  mode?: StateMode
  /** Default 600; an integer from 1 to 86400. */
  ttlSeconds?: number
  /** Epoch milliseconds; default Date.now. */
  clock?: () => number
  /** Default 16384; longer tokens are refused as 'malformed' before any decoding. */
  maxTokenLength?: number
  /** How far in the future `iat` may lie (clock drift between replicas). Default 60; 0 to 3600. */
  clockSkewSeconds?: number
}

export type StateRefusal = 'malformed' | 'unknown-key' | 'mac' | 'expired' | 'not-yet-valid' | 'binding'

export type OpenedState<T = unknown> =
  | { ok: true; payload: T; keyId: string; issuedAt: number; expiresAt: number; nonce: string }
  | { ok: false; reason: StateRefusal }

export interface RequestStateCodec {
  readonly ttlSeconds: number
  readonly mode: StateMode
  /** payload: any JSON value; binding: an opaque string (see binding.ts) covered by the MAC/AEAD but never put on the wire. */
  mint(payload: unknown, binding: string): string
  open<T = unknown>(token: string, binding: string): OpenedState<T>
}

interface Claims {
  iat: number
  exp: number
  nonce: string
  bind: string
  payload: unknown
}

/** How one mode puts authenticated claims on the wire and takes them back. */
interface TokenFormat {
  readonly prefix: string
  seal(key: DerivedKey, header: string, claims: string): string
  /** `token.slice(0, bodyStart)` is the header `<prefix><keyId>.`; returns the claims bytes or a refusal. */
  unseal(key: DerivedKey, token: string, bodyStart: number): Buffer | StateRefusal
}

const IV_BYTES = 12
const GCM_TAG_BYTES = 16
const MAC_BYTES = 32
const NONCE_BYTES = 16
const NONCE_CHARS = 22
const BIND_TAG_BYTES = 16
const GCM = 'aes-256-gcm'
// Shared frozen refusals: opening a bad token allocates nothing for its answer.
const REFUSED: { readonly [R in StateRefusal]: { ok: false; reason: R } } = {
  malformed: refusal('malformed'),
  'unknown-key': refusal('unknown-key'),
  mac: refusal('mac'),
  expired: refusal('expired'),
  'not-yet-valid': refusal('not-yet-valid'),
  binding: refusal('binding'),
}

function refusal<R extends StateRefusal>(reason: R): { ok: false; reason: R } {
  return Object.freeze({ ok: false, reason })
}

/**
 * Creates a codec over a key ring. Throws TypeError/RangeError on bad options, never later on a token.
 * @example
 * ```ts
 * import { createRequestStateCodec } from './codec.ts'
 * import { generateStateKey } from './key-ring.ts'
 *
 * const codec = createRequestStateCodec({ keys: [generateStateKey('k1')] })
 * const binding = 'the call this state belongs to'
 * const token = codec.mint({ step: 2 }, binding)
 * const opened = codec.open<{ step: number }>(token, binding) // { ok: true, payload: { step: 2 }, … }
 * ```
 */
export function createRequestStateCodec(options: RequestStateCodecOptions): RequestStateCodec {
  const ring = createKeyRing(options.keys)
  const { mode, format, ttlSeconds, maxTokenLength, skewMs, clock } = resolveCodecSettings(options)
  // The header is both the token's start and its authenticated prefix (AAD or MAC input).
  const mintHeader = `${format.prefix}${ring.primary.id}.`

  function mint(payload: unknown, binding: string): string {
    assertBinding(binding)
    assertPayload(payload)
    const key = ring.primary
    const iat = Math.floor(clock())
    if (!Number.isSafeInteger(iat)) throw new TypeError('clock must return epoch milliseconds')
    const nonce = encodeBase64url(pooledRandomBytes(NONCE_BYTES))
    const bind = encodeBase64url(bindTag(key.bindKey, nonce, binding))
    const claims = JSON.stringify({ iat, exp: iat + ttlSeconds * 1000, nonce, bind, payload })
    const token = format.seal(key, mintHeader, claims)
    if (token.length > maxTokenLength) {
      throw new RangeError(
        `requestState of ${token.length} characters exceeds maxTokenLength ${maxTokenLength}`,
      )
    }
    return token
  }

  function open<T>(token: string, binding: string): OpenedState<T> {
    assertBinding(binding)
    if (typeof token !== 'string' || token.length > maxTokenLength || !token.startsWith(format.prefix)) {
      return REFUSED.malformed
    }
    const bodyStart = token.indexOf('.', format.prefix.length) + 1
    const keyId = token.slice(format.prefix.length, bodyStart - 1)
    if (bodyStart === 0 || !isValidKeyId(keyId)) return REFUSED.malformed
    const key = ring.find(keyId)
    if (key === undefined) return REFUSED['unknown-key']
    const bytes = format.unseal(key, token, bodyStart)
    if (typeof bytes === 'string') return REFUSED[bytes]
    const claims = parseClaims(bytes)
    if (claims === undefined) return REFUSED.malformed
    return checkClaims<T>(key, claims, binding, clock(), skewMs)
  }

  return Object.freeze({ ttlSeconds, mode, mint, open })
}

function checkClaims<T>(
  key: DerivedKey,
  claims: Claims,
  binding: string,
  now: number,
  skewMs: number,
): OpenedState<T> {
  const carried = decodeBase64url(claims.bind)
  if (carried === undefined || carried.length !== BIND_TAG_BYTES) return REFUSED.malformed
  if (!timingSafeEqual(carried, bindTag(key.bindKey, claims.nonce, binding))) return REFUSED.binding
  if (now >= claims.exp) return REFUSED.expired
  if (claims.iat > now + skewMs) return REFUSED['not-yet-valid']
  const { iat, exp, nonce, payload } = claims
  return { ok: true, payload: payload as T, keyId: key.id, issuedAt: iat, expiresAt: exp, nonce }
}

// The nonce has a fixed length and alphabet, so nonce ‖ binding splits one way only; UTF-16LE
// encodes every JS string injectively (UTF-8 would merge lone surrogates into U+FFFD).
function bindTag(bindKey: KeyObject, nonce: string, binding: string): Buffer {
  return createHmac('sha256', bindKey)
    .update(nonce, 'latin1')
    .update(binding, 'utf16le')
    .digest()
    .subarray(0, BIND_TAG_BYTES)
}

// Only ever called on authenticated bytes, so a failure here means a bug or a leaked key, not a forgery.
function parseClaims(bytes: Buffer): Claims | undefined {
  let value: unknown
  try {
    value = JSON.parse(bytes.toString('utf8'))
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null || !('payload' in value)) return undefined
  const claims = value as Partial<Claims>
  const wellFormed =
    Number.isSafeInteger(claims.iat) &&
    Number.isSafeInteger(claims.exp) &&
    typeof claims.nonce === 'string' &&
    claims.nonce.length === NONCE_CHARS &&
    typeof claims.bind === 'string'
  return wellFormed ? (claims as Claims) : undefined
}

/** A codec's settings besides its keys, with their defaults. */
interface CodecSettings {
  readonly mode: StateMode
  readonly format: TokenFormat
  readonly ttlSeconds: number
  readonly maxTokenLength: number
  readonly skewMs: number
  readonly clock: () => number
}

function resolveCodecSettings(options: Omit<RequestStateCodecOptions, 'keys'>): CodecSettings {
  const mode = options.mode ?? 'sealed'
  const format = formatFor(mode)
  const ttlSeconds = integerOption('ttlSeconds', options.ttlSeconds, 600, 1, 86_400)
  const maxTokenLength = integerOption('maxTokenLength', options.maxTokenLength, 16_384, 1, 1 << 24)
  const skewMs = integerOption('clockSkewSeconds', options.clockSkewSeconds, 60, 0, 3600) * 1000
  const clock = options.clock ?? Date.now
  if (typeof clock !== 'function') throw new TypeError('clock must be a function')
  return { mode, format, ttlSeconds, maxTokenLength, skewMs, clock }
}

/**
 * Checks a codec's settings besides its keys, refusing at once what `createRequestStateCodec`
 * would refuse, and returns the lifetime of its states: for a caller that makes its codec later,
 * when its key is drawn (a random key may not be drawn at a Worker's module scope).
 */
export function checkCodecSettings(options: Omit<RequestStateCodecOptions, 'keys'>): { ttlSeconds: number } {
  return { ttlSeconds: resolveCodecSettings(options).ttlSeconds }
}

function formatFor(mode: StateMode): TokenFormat {
  if (mode === 'sealed') return sealedFormat
  if (mode === 'signed') return signedFormat
  throw new RangeError(`requestState mode must be 'sealed' or 'signed', not ${String(mode)}`)
}

const sealedFormat: TokenFormat = {
  prefix: 'tss1.',
  seal(key, header, claims) {
    const iv = pooledRandomBytes(IV_BYTES)
    const cipher = createCipheriv(GCM, key.sealKey, iv, { authTagLength: GCM_TAG_BYTES })
    cipher.setAAD(Buffer.from(header, 'latin1'))
    const body = Buffer.concat([iv, cipher.update(claims, 'utf8'), cipher.final(), cipher.getAuthTag()])
    return header + encodeBase64url(body)
  },
  unseal(key, token, bodyStart) {
    const body = decodeBase64url(token, bodyStart)
    if (body === undefined || body.length <= IV_BYTES + GCM_TAG_BYTES) return 'malformed'
    const tagStart = body.length - GCM_TAG_BYTES
    const decipher = createDecipheriv(GCM, key.sealKey, body.subarray(0, IV_BYTES), {
      authTagLength: GCM_TAG_BYTES,
    })
    decipher.setAAD(Buffer.from(token.slice(0, bodyStart), 'latin1'))
    decipher.setAuthTag(body.subarray(tagStart))
    const plain = decipher.update(body.subarray(IV_BYTES, tagStart))
    try {
      // GCM releases nothing until final() has checked the tag; `plain` is unused if it throws.
      const rest = decipher.final()
      return rest.length === 0 ? plain : Buffer.concat([plain, rest])
    } catch {
      return 'mac'
    }
  },
}

const signedFormat: TokenFormat = {
  prefix: 'tsh1.',
  seal(key, header, claims) {
    const signedPart = header + encodeBase64url(Buffer.from(claims, 'utf8'))
    const mac = createHmac('sha256', key.macKey).update(signedPart, 'latin1').digest()
    return `${signedPart}.${encodeBase64url(mac)}`
  },
  unseal(key, token, bodyStart) {
    const macStart = token.indexOf('.', bodyStart) + 1
    if (macStart === 0) return 'malformed'
    // Decoding both parts first makes any second spelling 'malformed', whatever the MAC says.
    const claims = decodeBase64url(token, bodyStart, macStart - 1)
    const mac = decodeBase64url(token, macStart)
    if (claims === undefined || claims.length === 0 || mac === undefined || mac.length !== MAC_BYTES) {
      return 'malformed'
    }
    const expected = createHmac('sha256', key.macKey)
      .update(token.slice(0, macStart - 1), 'latin1')
      .digest()
    return timingSafeEqual(expected, mac) ? claims : 'mac'
  },
}

function integerOption(name: string, value: number | undefined, fallback: number, min: number, max: number) {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, not ${value}`)
  }
  return value
}

function assertBinding(binding: string): void {
  // A missing binding is a framework bug; refusing loudly beats silently binding to "undefined".
  if (typeof binding !== 'string') throw new TypeError('requestState binding must be a string')
}

function assertPayload(payload: unknown): void {
  const kind = typeof payload
  if (kind === 'undefined' || kind === 'function' || kind === 'symbol') {
    throw new TypeError(`requestState payload must be a JSON value, not ${kind}`)
  }
}
