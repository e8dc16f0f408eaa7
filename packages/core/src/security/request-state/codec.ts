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
 *
 * Minting and opening are asynchronous: WebCrypto answers with promises. On Node the platform's
 * `node:crypto` answers at once and only the final promise remains. A token the codec minted
 * itself a moment ago is recognised as that very token and opened without its cryptography
 * (`recent-mints.ts`); the answers are the same either way.
 */

import * as platformCrypto from '#crypto'
import { BIND_TAG_BYTES, GCM_TAG_BYTES, type PlatformCrypto, type StateKeys } from '../crypto.ts'
import { pooledRandomBytes } from '../random.ts'
import { createKeyRing, isValidKeyId, type StateKey } from './key-ring.ts'
import { RecentMints, sameText } from './recent-mints.ts'

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
  /**
   * payload: any JSON value; binding: an opaque string (see binding.ts) covered by the MAC/AEAD but
   * never put on the wire. Rejects with a TypeError or RangeError on a bad payload or binding.
   */
  mint(payload: unknown, binding: string): Promise<string>
  /** Never rejects on a token: every defect is a refusal. */
  open<T = unknown>(token: string, binding: string): Promise<OpenedState<T>>
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
  seal(crypto: PlatformCrypto, keys: StateKeys, header: string, claims: string): Promise<string>
  /** `token.slice(0, bodyStart)` is the header `<prefix><keyId>.`; returns the claims bytes or a refusal. */
  unseal(
    crypto: PlatformCrypto,
    keys: StateKeys,
    token: string,
    bodyStart: number,
  ): Promise<Uint8Array | StateRefusal>
}

const IV_BYTES = 12
const MAC_BYTES = 32
const NONCE_BYTES = 16
const NONCE_CHARS = 22
/** The states minted most recently that a codec keeps (`RecentMints`), and their longest token. */
const RECENT_MINTS = 1024
const RECENT_MINT_CHARS = 2048
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
 * const token = await codec.mint({ step: 2 }, binding)
 * const opened = await codec.open<{ step: number }>(token, binding) // { ok: true, payload: { step: 2 }, … }
 * ```
 */
export function createRequestStateCodec(options: RequestStateCodecOptions): RequestStateCodec {
  return createCodecOn(platformCrypto, options)
}

/**
 * A codec over the given implementation of the state cryptography: the platform's is
 * {@link createRequestStateCodec}; tests pair the two to check that each opens the other's states.
 */
export function createCodecOn(crypto: PlatformCrypto, options: RequestStateCodecOptions): RequestStateCodec {
  const ring = createKeyRing(options.keys, crypto.deriveStateKeys)
  const { mode, format, ttlSeconds, maxTokenLength, skewMs, clock } = resolveCodecSettings(options)
  // The header is both the token's start and its authenticated prefix (AAD or MAC input).
  const mintHeader = `${format.prefix}${ring.primary.id}.`
  const recent = new RecentMints(RECENT_MINTS, RECENT_MINT_CHARS)

  async function mint(payload: unknown, binding: string): Promise<string> {
    assertBinding(binding)
    assertPayload(payload)
    const iat = Math.floor(clock())
    if (!Number.isSafeInteger(iat)) throw new TypeError('clock must return epoch milliseconds')
    const keys = await ring.primary.keys()
    const nonce = crypto.encodeBase64url(pooledRandomBytes(NONCE_BYTES))
    const bind = crypto.encodeBase64url(await crypto.bindTag(keys, nonce, binding))
    const claims = JSON.stringify({ iat, exp: iat + ttlSeconds * 1000, nonce, bind, payload })
    const token = await format.seal(crypto, keys, mintHeader, claims)
    if (token.length > maxTokenLength) {
      throw new RangeError(
        `requestState of ${token.length} characters exceeds maxTokenLength ${maxTokenLength}`,
      )
    }
    recent.remember({ keys, token, claims, binding })
    return token
  }

  async function open<T>(token: string, binding: string): Promise<OpenedState<T>> {
    assertBinding(binding)
    if (typeof token !== 'string' || token.length > maxTokenLength || !token.startsWith(format.prefix)) {
      return REFUSED.malformed
    }
    const bodyStart = token.indexOf('.', format.prefix.length) + 1
    const keyId = token.slice(format.prefix.length, bodyStart - 1)
    if (bodyStart === 0 || !isValidKeyId(keyId)) return REFUSED.malformed
    const key = ring.find(keyId)
    if (key === undefined) return REFUSED['unknown-key']
    const keys = await key.keys()
    const minted = recent.recall(keys, token)
    if (minted !== undefined) {
      // Equal bindings give equal tags; different ones, tags that differ.
      if (!sameText(minted.binding, binding)) return REFUSED.binding
      return checkTimes<T>(keyId, JSON.parse(minted.claims) as Claims, clock(), skewMs)
    }
    const bytes = await format.unseal(crypto, keys, token, bodyStart)
    if (typeof bytes === 'string') return REFUSED[bytes]
    const claims = parseClaims(bytes)
    if (claims === undefined) return REFUSED.malformed
    const carried = crypto.decodeBase64url(claims.bind)
    if (carried === undefined || carried.length !== BIND_TAG_BYTES) return REFUSED.malformed
    if (!crypto.sameBytes(carried, await crypto.bindTag(keys, claims.nonce, binding))) return REFUSED.binding
    return checkTimes<T>(keyId, claims, clock(), skewMs)
  }

  return Object.freeze({ ttlSeconds, mode, mint, open })
}

function checkTimes<T>(keyId: string, claims: Claims, now: number, skewMs: number): OpenedState<T> {
  if (now >= claims.exp) return REFUSED.expired
  if (claims.iat > now + skewMs) return REFUSED['not-yet-valid']
  const { iat, exp, nonce, payload } = claims
  return { ok: true, payload: payload as T, keyId, issuedAt: iat, expiresAt: exp, nonce }
}

const UTF8 = new TextDecoder()
const UTF8_BYTES = new TextEncoder()

// Only ever called on authenticated bytes, so a failure here means a bug or a leaked key, not a forgery.
function parseClaims(bytes: Uint8Array): Claims | undefined {
  let value: unknown
  try {
    value = JSON.parse(UTF8.decode(bytes))
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
  async seal(crypto, keys, header, claims) {
    const iv = pooledRandomBytes(IV_BYTES)
    const sealed = await crypto.sealState(keys, iv, header, claims)
    const body = new Uint8Array(IV_BYTES + sealed.length)
    body.set(iv)
    body.set(sealed, IV_BYTES)
    return header + crypto.encodeBase64url(body)
  },
  async unseal(crypto, keys, token, bodyStart) {
    const body = crypto.decodeBase64url(token, bodyStart)
    if (body === undefined || body.length <= IV_BYTES + GCM_TAG_BYTES) return 'malformed'
    const plain = await crypto.unsealState(
      keys,
      body.subarray(0, IV_BYTES),
      token.slice(0, bodyStart),
      body.subarray(IV_BYTES),
    )
    return plain ?? 'mac'
  },
}

const signedFormat: TokenFormat = {
  prefix: 'tsh1.',
  async seal(crypto, keys, header, claims) {
    const signedPart = header + crypto.encodeBase64url(UTF8_BYTES.encode(claims))
    return `${signedPart}.${crypto.encodeBase64url(await crypto.signState(keys, signedPart))}`
  },
  async unseal(crypto, keys, token, bodyStart) {
    const macStart = token.indexOf('.', bodyStart) + 1
    if (macStart === 0) return 'malformed'
    // Decoding both parts first makes any second spelling 'malformed', whatever the MAC says.
    const claims = crypto.decodeBase64url(token, bodyStart, macStart - 1)
    const mac = crypto.decodeBase64url(token, macStart)
    if (claims === undefined || claims.length === 0 || mac === undefined || mac.length !== MAC_BYTES) {
      return 'malformed'
    }
    return (await crypto.verifyState(keys, token.slice(0, macStart - 1), mac)) ? claims : 'mac'
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
