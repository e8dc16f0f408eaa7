/**
 * @module random
 * Random values the server makes on every multi round-trip call (a state's nonce and IV, a
 * single-use claim's fence), drawn from a pool the CSPRNG refills in 4 KiB blocks: one call into
 * the generator per block instead of one per value, which cost more than the AES-GCM seal
 * itself. The pool holds nonces, IVs and identifiers only, never key material; a value's bytes
 * are wiped from the pool as it is handed out. The generator is WebCrypto's, which every runtime
 * has; the pool is filled on first use, never at module load (Workers forbid random values there).
 */
import { encodeBase64url } from '#crypto'
import type { Bytes } from './crypto.ts'

const POOL_BYTES = 4096
const pool = new Uint8Array(POOL_BYTES)
let offset = POOL_BYTES

/** `size` (1 to 256) fresh random bytes of their own. */
export function pooledRandomBytes(size: number): Bytes {
  if (!Number.isInteger(size) || size < 1 || size > 256) {
    throw new RangeError(`pooledRandomBytes: size must be an integer from 1 to 256, not ${size}`)
  }
  if (offset + size > POOL_BYTES) {
    globalThis.crypto.getRandomValues(pool)
    offset = 0
  }
  const bytes = pool.slice(offset, offset + size)
  pool.fill(0, offset, offset + size)
  offset += size
  return bytes
}

/** An identifier of `size` random bytes, as unpadded base64url. */
export function randomId(size: number): string {
  return encodeBase64url(pooledRandomBytes(size))
}
