/**
 * @module crypto-node
 * `#crypto` on Node, Bun and Deno: `node:crypto`, whose calls answer synchronously. WebCrypto on
 * Node runs each call as a job on the thread pool and costs about ten times more per state.
 * Node's one-shot `crypto.hash` (Node 20.12+) is about four times faster on short inputs than a
 * `Hash` object; older Node 20 releases take the object path, which gives the same digest.
 */
import * as crypto from 'node:crypto'
import { BIND_TAG_BYTES, type Bytes, GCM_TAG_BYTES, STATE_HKDF, type StateKeys } from './crypto.ts'

type OneShot = (algorithm: string, data: string, encoding: 'base64url') => string
const oneShot = (crypto as { hash?: OneShot }).hash

export const sha256Base64url: (text: string) => string =
  typeof oneShot === 'function'
    ? (text) => oneShot('sha256', text, 'base64url')
    : (text) => crypto.createHash('sha256').update(text, 'utf8').digest('base64url')

/** Node's encoder is already canonical (unpadded, no spare bits). */
export function encodeBase64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url')
}

/**
 * Node's decoder is lenient: it skips characters outside the alphabet, takes `+` and `/`, padding
 * and spare low bits. Its bytes count only when they encode back to the very text decoded, which
 * leaves one spelling per byte string, as the script decoder of the other platforms does, at a
 * fifth of that decoder's cost on a requestState.
 */
export function decodeBase64url(text: string, start = 0, end = text.length): Bytes | undefined {
  if (start < 0 || end < start || end > text.length) return undefined
  const part = start === 0 && end === text.length ? text : text.slice(start, end)
  const bytes = Buffer.from(part, 'base64url')
  if (bytes.toString('base64url') !== part) return undefined
  // A plain view of the same memory, as every platform answers: not a Buffer, with its methods.
  return new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength)
}

interface NodeStateKeys extends StateKeys {
  readonly platform: 'node'
  readonly seal: crypto.KeyObject
  readonly mac: crypto.KeyObject
  readonly bind: crypto.KeyObject
}

const GCM = 'aes-256-gcm'

export function deriveStateKeys(secret: Bytes): StateKeys {
  const derive = (info: string) =>
    crypto.createSecretKey(Buffer.from(crypto.hkdfSync('sha256', secret, STATE_HKDF.salt, info, 32)))
  const keys: NodeStateKeys = {
    platform: 'node',
    seal: derive(STATE_HKDF.seal),
    mac: derive(STATE_HKDF.mac),
    bind: derive(STATE_HKDF.bind),
  }
  return keys
}

function own(keys: StateKeys): NodeStateKeys {
  if (keys.platform !== 'node')
    throw new TypeError(`requestState keys derived on ${keys.platform} cannot be used on node`)
  return keys as NodeStateKeys
}

export function sealState(keys: StateKeys, iv: Bytes, header: string, claims: string): Bytes {
  const cipher = crypto.createCipheriv(GCM, own(keys).seal, iv, { authTagLength: GCM_TAG_BYTES })
  cipher.setAAD(Buffer.from(header, 'latin1'))
  return Buffer.concat([cipher.update(claims, 'utf8'), cipher.final(), cipher.getAuthTag()])
}

export function unsealState(keys: StateKeys, iv: Bytes, header: string, sealed: Bytes): Bytes | undefined {
  const tagStart = sealed.length - GCM_TAG_BYTES
  const decipher = crypto.createDecipheriv(GCM, own(keys).seal, iv, { authTagLength: GCM_TAG_BYTES })
  decipher.setAAD(Buffer.from(header, 'latin1'))
  decipher.setAuthTag(sealed.subarray(tagStart))
  const plain = decipher.update(sealed.subarray(0, tagStart))
  try {
    // GCM releases nothing until final() has checked the tag; `plain` is unused if it throws.
    const rest = decipher.final()
    return rest.length === 0 ? plain : Buffer.concat([plain, rest])
  } catch {
    return undefined
  }
}

export function signState(keys: StateKeys, signed: string): Bytes {
  return crypto.createHmac('sha256', own(keys).mac).update(signed, 'latin1').digest()
}

export function verifyState(keys: StateKeys, signed: string, mac: Bytes): boolean {
  const expected = signState(keys, signed)
  return expected.length === mac.length && crypto.timingSafeEqual(expected, mac)
}

// The nonce has a fixed length and alphabet, so nonce ‖ binding splits one way only; UTF-16LE
// encodes every JS string injectively (UTF-8 would merge lone surrogates into U+FFFD).
export function bindTag(keys: StateKeys, nonce: string, binding: string): Bytes {
  return crypto
    .createHmac('sha256', own(keys).bind)
    .update(nonce, 'latin1')
    .update(binding, 'utf16le')
    .digest()
    .subarray(0, BIND_TAG_BYTES)
}

export function sameBytes(a: Bytes, b: Bytes): boolean {
  return a.length === b.length && crypto.timingSafeEqual(a, b)
}
