/**
 * @module crypto
 * The cryptography the server needs, as one port with an implementation per platform: Node's
 * (`crypto-node.ts`, `node:crypto`, synchronous and the fastest there) and the web's
 * (`crypto-web.ts`, WebCrypto, for Workers and browsers). Modules import them as `#crypto`; the
 * package's `imports` conditions choose one, so the request path never asks which platform it is
 * on. Both write the same bytes: a state one seals, the other opens.
 */

/** A value, or a promise of it: Node answers at once, WebCrypto later. */
export type Awaitable<T> = T | Promise<T>

/** Bytes over an ordinary `ArrayBuffer`, the kind WebCrypto takes. */
export type Bytes = Uint8Array<ArrayBuffer>

/**
 * The working keys one requestState secret yields (sealing, MAC, binding tag), in the form of the
 * platform that derived them: `node:crypto` key objects or WebCrypto keys, never the other's.
 */
export interface StateKeys {
  readonly platform: 'node' | 'web'
}

/** What the requestState codec asks of the platform. Strings passed as `header` or `signed` are ASCII. */
export interface StateCrypto {
  /** Stretches a secret of 32 bytes or more into one key per purpose with HKDF-SHA256. */
  deriveStateKeys(secret: Bytes): Awaitable<StateKeys>
  /** AES-256-GCM of the UTF-8 bytes of `claims` under `iv`, `header` as AAD: ciphertext ‖ 16-byte tag. */
  sealState(keys: StateKeys, iv: Bytes, header: string, claims: string): Awaitable<Bytes>
  /** The plaintext of `sealed` (ciphertext ‖ tag), or undefined when its tag does not check. */
  unsealState(keys: StateKeys, iv: Bytes, header: string, sealed: Bytes): Awaitable<Bytes | undefined>
  /** HMAC-SHA256 of `signed` under the MAC key. */
  signState(keys: StateKeys, signed: string): Awaitable<Bytes>
  /** Whether `mac` is the HMAC of `signed`, compared in constant time. */
  verifyState(keys: StateKeys, signed: string, mac: Bytes): Awaitable<boolean>
  /** The first 16 bytes of HMAC-SHA256(nonce as Latin-1 ‖ binding as UTF-16LE) under the binding key. */
  bindTag(keys: StateKeys, nonce: string, binding: string): Awaitable<Bytes>
  /** Whether two byte strings of one length are equal, in time that does not depend on where they differ. */
  sameBytes(a: Bytes, b: Bytes): boolean
}

/** Everything `#crypto` exports. */
export interface PlatformCrypto extends StateCrypto {
  /** SHA-256 of the UTF-8 bytes of `text`, as unpadded base64url (43 characters). */
  sha256Base64url(text: string): string
  /** Bytes as unpadded base64url. */
  encodeBase64url(bytes: Uint8Array): string
  /**
   * `text.slice(start, end)` decoded as unpadded base64url, or undefined unless it is the one
   * spelling of its bytes (no padding, whitespace, `+`, `/` or spare low bits, no length 4n+1).
   */
  decodeBase64url(text: string, start?: number, end?: number): Bytes | undefined
}

/** HKDF's salt and infos: fixed, so these keys differ from anything else derived from the same secret. */
export const STATE_HKDF = {
  salt: 'tessera/request-state/v1',
  seal: 'tessera request-state aes-256-gcm',
  mac: 'tessera request-state hmac-sha256',
  bind: 'tessera request-state binding-tag',
} as const

export const BIND_TAG_BYTES = 16
export const GCM_TAG_BYTES = 16
