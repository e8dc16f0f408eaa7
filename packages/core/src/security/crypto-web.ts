/**
 * @module crypto-web
 * `#crypto` on Workers and in browsers: WebCrypto for every keyed operation (HKDF, AES-256-GCM,
 * HMAC-SHA256), so no secret is handled by script. WebCrypto's digest is asynchronous only, and
 * the server's digests (bindings, cursors, derived ids) are taken in synchronous code, so SHA-256
 * comes from `@noble/hashes` (audited, pure script); it hashes nothing secret.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { BIND_TAG_BYTES, type Bytes, STATE_HKDF, type StateKeys } from './crypto.ts'

export { decodeBase64url } from './request-state/base64url.ts'

const utf8 = new TextEncoder()
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

export function sha256Base64url(text: string): string {
  return encodeBase64url(sha256(utf8.encode(text)))
}

export function encodeBase64url(bytes: Uint8Array): string {
  let out = ''
  const whole = bytes.length - (bytes.length % 3)
  for (let i = 0; i < whole; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!
  }
  const rest = bytes.length - whole
  if (rest === 1) {
    const n = bytes[whole]!
    out += ALPHABET[n >> 2]! + ALPHABET[(n & 3) << 4]!
  } else if (rest === 2) {
    const n = (bytes[whole]! << 8) | bytes[whole + 1]!
    out += ALPHABET[n >> 10]! + ALPHABET[(n >> 4) & 63]! + ALPHABET[(n & 15) << 2]!
  }
  return out
}

interface WebStateKeys extends StateKeys {
  readonly platform: 'web'
  readonly seal: CryptoKey
  readonly mac: CryptoKey
  readonly bind: CryptoKey
}

const HMAC = { name: 'HMAC', hash: 'SHA-256' } as const

export async function deriveStateKeys(secret: Bytes): Promise<StateKeys> {
  const { subtle } = globalThis.crypto
  // importKey copies the secret before anything is awaited: the key ring wipes it on return.
  const base = await subtle.importKey('raw', secret, 'HKDF', false, ['deriveBits'])
  const derive = async (info: string) =>
    subtle.deriveBits(
      { name: 'HKDF', hash: 'SHA-256', salt: utf8.encode(STATE_HKDF.salt), info: utf8.encode(info) },
      base,
      256,
    )
  const [seal, mac, bind] = await Promise.all([
    derive(STATE_HKDF.seal).then((bits) =>
      subtle.importKey('raw', bits, 'AES-GCM', false, ['encrypt', 'decrypt']),
    ),
    derive(STATE_HKDF.mac).then((bits) => subtle.importKey('raw', bits, HMAC, false, ['sign', 'verify'])),
    derive(STATE_HKDF.bind).then((bits) => subtle.importKey('raw', bits, HMAC, false, ['sign'])),
  ])
  const keys: WebStateKeys = { platform: 'web', seal, mac, bind }
  return keys
}

function own(keys: StateKeys): WebStateKeys {
  if (keys.platform !== 'web')
    throw new TypeError(`requestState keys derived on ${keys.platform} cannot be used on web`)
  return keys as WebStateKeys
}

export async function sealState(keys: StateKeys, iv: Bytes, header: string, claims: string): Promise<Bytes> {
  const params = { name: 'AES-GCM', iv, additionalData: latin1(header), tagLength: 128 }
  return new Uint8Array(await globalThis.crypto.subtle.encrypt(params, own(keys).seal, utf8.encode(claims)))
}

export async function unsealState(
  keys: StateKeys,
  iv: Bytes,
  header: string,
  sealed: Bytes,
): Promise<Bytes | undefined> {
  const params = { name: 'AES-GCM', iv, additionalData: latin1(header), tagLength: 128 }
  try {
    return new Uint8Array(await globalThis.crypto.subtle.decrypt(params, own(keys).seal, sealed))
  } catch {
    // An OperationError: the tag does not check. WebCrypto says nothing more, and we need nothing more.
    return undefined
  }
}

export async function signState(keys: StateKeys, signed: string): Promise<Bytes> {
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', own(keys).mac, latin1(signed)))
}

export function verifyState(keys: StateKeys, signed: string, mac: Bytes): Promise<boolean> {
  // WebCrypto's verify compares in constant time.
  return globalThis.crypto.subtle.verify('HMAC', own(keys).mac, mac, latin1(signed))
}

// The nonce has a fixed length and alphabet, so nonce ‖ binding splits one way only; UTF-16LE
// encodes every JS string injectively (UTF-8 would merge lone surrogates into U+FFFD).
export async function bindTag(keys: StateKeys, nonce: string, binding: string): Promise<Bytes> {
  const data = new Uint8Array(nonce.length + binding.length * 2)
  for (let i = 0; i < nonce.length; i++) data[i] = nonce.charCodeAt(i)
  for (let i = 0, at = nonce.length; i < binding.length; i++, at += 2) {
    const unit = binding.charCodeAt(i)
    data[at] = unit & 0xff
    data[at + 1] = unit >> 8
  }
  const mac = await globalThis.crypto.subtle.sign('HMAC', own(keys).bind, data)
  return new Uint8Array(mac, 0, BIND_TAG_BYTES)
}

export function sameBytes(a: Bytes, b: Bytes): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!
  return difference === 0
}

/** The bytes of an ASCII string (every header and signed part is ASCII). */
function latin1(text: string): Bytes {
  const bytes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
  return bytes
}
