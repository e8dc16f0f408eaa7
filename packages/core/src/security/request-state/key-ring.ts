/**
 * @module key-ring
 * The ordered set of requestState keys: the first seals or signs, every key opens, so keys rotate
 * in rolled-out phases `[old,new]` → `[new,old]` → `[new]` (the last one TTL after the second).
 * Each secret is stretched once, at construction, into one key per purpose with HKDF-SHA256, so
 * the hot path never derives and no two purposes share key material.
 */

import { createSecretKey, hkdfSync, type KeyObject, randomBytes } from 'node:crypto'

/** A configured key. `id` travels in every token; `secret` is at least 32 bytes (a string counts its UTF-8 bytes). */
export interface StateKey {
  id: string
  secret: string | Uint8Array
}

/** The per-purpose keys derived from one {@link StateKey}. */
export interface DerivedKey {
  readonly id: string
  /** AES-256-GCM key for sealed tokens. */
  readonly sealKey: KeyObject
  /** HMAC-SHA256 key for signed tokens. */
  readonly macKey: KeyObject
  /** HMAC-SHA256 key for the binding tag carried inside the protected claims. */
  readonly bindKey: KeyObject
}

export interface KeyRing {
  /** The key new tokens are minted under (the first configured). */
  readonly primary: DerivedKey
  find(id: string): DerivedKey | undefined
  /** Configured ids in ring order. */
  readonly ids: readonly string[]
}

export const MIN_SECRET_BYTES = 32
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/
// A fixed salt separates these keys from anything else an operator derives from the same secret.
const HKDF_SALT = Buffer.from('tessera/request-state/v1', 'utf8')
const INFO_SEAL = Buffer.from('tessera request-state aes-256-gcm', 'utf8')
const INFO_MAC = Buffer.from('tessera request-state hmac-sha256', 'utf8')
const INFO_BIND = Buffer.from('tessera request-state binding-tag', 'utf8')

/** True for a well-formed key id: 1 to 32 characters of `[A-Za-z0-9_-]`, so it never holds the token's `.` separator. */
export function isValidKeyId(id: string): boolean {
  return KEY_ID.test(id)
}

/**
 * Validates the keys and derives their working keys once. Throws TypeError for wrong types and
 * RangeError for an empty ring, a malformed or duplicate id, or a secret under 32 bytes.
 * @example
 * ```ts
 * import { createKeyRing } from './key-ring.ts'
 *
 * const ring = createKeyRing([{ id: '2026-08', secret: process.env.STATE_KEY! }])
 * ring.primary.id // '2026-08': the first key seals, every key opens
 * ```
 */
export function createKeyRing(keys: readonly StateKey[]): KeyRing {
  if (!Array.isArray(keys)) throw new TypeError('requestState keys must be an array')
  if (keys.length === 0) throw new RangeError('requestState keys must hold at least one key')
  const byId = new Map<string, DerivedKey>()
  for (const [index, key] of keys.entries()) {
    const derived = deriveKey(key, index)
    if (byId.has(derived.id)) throw new RangeError(`requestState key id "${derived.id}" is configured twice`)
    byId.set(derived.id, derived)
  }
  const ids = Object.freeze([...byId.keys()])
  const primary = byId.get(ids[0]!)!
  return Object.freeze({ primary, ids, find: (id: string) => byId.get(id) })
}

/**
 * A fresh random key, for the ephemeral default when no key is configured. States minted under it
 * die with the process and are not shared by replicas, so production should configure keys.
 * @example
 * ```ts
 * import { createServer } from '@tessera/core'
 * import { generateStateKey } from '@tessera/core/request-state'
 *
 * // A test's server: its states open in this process only.
 * const app = createServer({ name: 'ops', version: '1.0.0', requestState: { keys: [generateStateKey('test')] } })
 * ```
 */
export function generateStateKey(id?: string): StateKey {
  const keyId = id ?? `ephemeral-${randomBytes(9).toString('base64url')}`
  assertKeyId(keyId)
  return { id: keyId, secret: randomBytes(MIN_SECRET_BYTES) }
}

function deriveKey(key: StateKey, index: number): DerivedKey {
  if (typeof key !== 'object' || key === null) {
    throw new TypeError(`requestState keys[${index}] is ${describe(key)}; each key is { id, secret }`)
  }
  assertKeyId(key.id)
  const secret = secretBytes(key)
  return Object.freeze({
    id: key.id,
    sealKey: hkdfKey(secret, INFO_SEAL),
    macKey: hkdfKey(secret, INFO_MAC),
    bindKey: hkdfKey(secret, INFO_BIND),
  })
}

function assertKeyId(id: unknown): asserts id is string {
  if (typeof id !== 'string')
    throw new TypeError(`requestState key id is ${describe(id)}; it must be a string`)
  if (!isValidKeyId(id)) {
    throw new RangeError(`requestState key id "${id}" must be 1-32 characters of [A-Za-z0-9_-]`)
  }
}

function secretBytes(key: StateKey): Uint8Array {
  const { secret } = key
  const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret
  if (!(bytes instanceof Uint8Array)) {
    const hint = secret === undefined || secret === null ? ' (is the variable that should hold it set?)' : ''
    throw new TypeError(
      `requestState key "${key.id}": secret is ${describe(secret)}; it must be a string or a Uint8Array${hint}`,
    )
  }
  if (bytes.byteLength < MIN_SECRET_BYTES) {
    throw new RangeError(`requestState key "${key.id}": secret must be at least ${MIN_SECRET_BYTES} bytes`)
  }
  return bytes
}

function hkdfKey(secret: Uint8Array, info: Buffer): KeyObject {
  return createSecretKey(Buffer.from(hkdfSync('sha256', secret, HKDF_SALT, info, 32)))
}

/** Names what a value is without printing it: a secret must never reach an error message. */
function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  const type = typeof value
  return type === 'undefined' ? 'undefined' : `of type ${type}`
}
