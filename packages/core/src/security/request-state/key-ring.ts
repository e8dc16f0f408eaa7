/**
 * @module key-ring
 * The ordered set of requestState keys: the first seals or signs, every key opens, so keys rotate
 * in rolled-out phases `[old,new]` → `[new,old]` → `[new]` (the last one TTL after the second).
 * Each secret is stretched once, on its first use, into one key per purpose with HKDF-SHA256, so
 * no two purposes share key material and the hot path never derives again. Not at construction:
 * WebCrypto derives asynchronously, and a Worker builds its server where nothing asynchronous may run.
 */

import { deriveStateKeys, encodeBase64url } from '#crypto'
import type { Awaitable, Bytes, StateCrypto, StateKeys } from '../crypto.ts'

/** A configured key. `id` travels in every token; `secret` is at least 32 bytes (a string counts its UTF-8 bytes). */
export interface StateKey {
  id: string
  secret: string | Uint8Array
}

/** One configured key, checked, with the per-purpose keys derived from it on first use. */
export interface DerivedKey {
  readonly id: string
  /** The sealing, MAC and binding-tag keys; derived once, then the same value every call. */
  keys(): Awaitable<StateKeys>
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

/** True for a well-formed key id: 1 to 32 characters of `[A-Za-z0-9_-]`, so it never holds the token's `.` separator. */
export function isValidKeyId(id: string): boolean {
  return KEY_ID.test(id)
}

/**
 * Validates the keys; each derives its working keys with `derive` (this platform's) on first use.
 * Throws TypeError for wrong types and RangeError for an empty ring, a malformed or duplicate id,
 * or a secret under 32 bytes.
 * @example
 * ```ts
 * import { createKeyRing } from './key-ring.ts'
 *
 * const ring = createKeyRing([{ id: '2026-08', secret: process.env.STATE_KEY! }])
 * ring.primary.id // '2026-08': the first key seals, every key opens
 * ```
 */
export function createKeyRing(
  keys: readonly StateKey[],
  derive: StateCrypto['deriveStateKeys'] = deriveStateKeys,
): KeyRing {
  if (!Array.isArray(keys)) throw new TypeError('requestState keys must be an array')
  if (keys.length === 0) throw new RangeError('requestState keys must hold at least one key')
  const byId = new Map<string, DerivedKey>()
  for (const [index, key] of keys.entries()) {
    const derived = deriveKey(key, index, derive)
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
  const keyId = id ?? `ephemeral-${encodeBase64url(randomBytes(9))}`
  assertKeyId(keyId)
  return { id: keyId, secret: randomBytes(MIN_SECRET_BYTES) }
}

function randomBytes(size: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(size))
}

function deriveKey(key: StateKey, index: number, derive: StateCrypto['deriveStateKeys']): DerivedKey {
  if (typeof key !== 'object' || key === null) {
    throw new TypeError(`requestState keys[${index}] is ${describe(key)}; each key is { id, secret }`)
  }
  assertKeyId(key.id)
  // A copy: the caller's array may be reused or wiped before the first state is sealed.
  let secret: Bytes | undefined = secretBytes(key).slice()
  let derived: Awaitable<StateKeys> | undefined
  const keys = (): Awaitable<StateKeys> => {
    if (derived === undefined && secret !== undefined) {
      derived = derive(secret)
      // Both platforms copy the secret in the call itself (hkdfSync, importKey before its first
      // await), so it is wiped now: only the derived keys stay in memory.
      secret.fill(0)
      secret = undefined
    }
    return derived!
  }
  return Object.freeze({ id: key.id, keys })
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
  const bytes = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret
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

/** Names what a value is without printing it: a secret must never reach an error message. */
function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  const type = typeof value
  return type === 'undefined' ? 'undefined' : `of type ${type}`
}
