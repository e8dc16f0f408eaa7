/**
 * @module dpop-nonce
 * Server-issued DPoP nonces, which stop a client from signing proofs ahead of time for later use.
 * A nonce is an HMAC of the current time window, so it needs no storage: every worker and instance
 * sharing the secret issues and accepts the same nonces. A nonce stays good for the window it was
 * issued in and the next one, so a client that fetched one just before a rotation is not refused.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { assertKnownOptions, type OptionNames } from '@tessera/core/ports'

/** How `dpopNonces` makes its nonces: the key they are MACs under and how often they change. */
export interface DpopNonceOptions {
  /**
   * The HMAC key, at least 32 bytes; every instance that must accept another's nonces needs the
   * same one. Without it a random key is drawn, good for one process only.
   */
  secret?: Uint8Array
  /** How long a window lasts, in milliseconds; default 5 minutes. */
  rotateMs?: number
  /** Clock in epoch milliseconds; injectable so tests can move time without waiting. */
  now?: () => number
}

const DPOP_NONCE_OPTION_NAMES = {
  secret: true,
  rotateMs: true,
  now: true,
} as const satisfies OptionNames<DpopNonceOptions>

/** Server-issued DPoP nonces: give this as `dpop.nonces` of `oauthResourceServer`. */
export interface DpopNonces {
  /** The nonce to send to clients now (in the DPoP-Nonce response header). */
  current(): string
  /** True when the nonce is the current window's or the previous one's. */
  accepts(nonce: string): boolean
}

const DEFAULT_ROTATE_MS = 5 * 60 * 1000
/** The HMAC-SHA256 key length: a shorter key would be the weakest part. */
const MIN_SECRET_BYTES = 32

/**
 * Nonces that need no storage: every instance sharing `secret` issues and accepts the same ones,
 * each good for its window and the next. Throws a RangeError for a short key or a bad window.
 */
export function dpopNonces(options: DpopNonceOptions = {}): DpopNonces {
  assertKnownOptions(options, DPOP_NONCE_OPTION_NAMES, 'dpopNonces')
  const rotateMs = options.rotateMs ?? DEFAULT_ROTATE_MS
  if (!Number.isSafeInteger(rotateMs) || rotateMs < 1)
    throw new RangeError('rotateMs must be a positive integer')
  if (options.secret !== undefined && options.secret.byteLength < MIN_SECRET_BYTES)
    throw new RangeError(`secret must be at least ${MIN_SECRET_BYTES} bytes`)
  // A copy: a caller reusing its buffer must not change the nonces under way.
  const secret = options.secret === undefined ? randomBytes(MIN_SECRET_BYTES) : Buffer.from(options.secret)
  const now = options.now ?? Date.now

  const windowAt = (): number => Math.floor(now() / rotateMs)
  // The label keeps these MACs apart from anything else the same secret might be used for.
  const mac = (window: number): Buffer => createHmac('sha256', secret).update(`dpop-nonce:${window}`).digest()

  return {
    current() {
      return mac(windowAt()).toString('base64url')
    },
    accepts(nonce) {
      if (typeof nonce !== 'string') return false
      const presented = Buffer.from(nonce, 'utf8')
      const window = windowAt()
      // Both windows are always compared, so timing does not tell which one matched.
      const current = matches(presented, mac(window))
      const previous = matches(presented, mac(window - 1))
      return current || previous
    },
  }
}

/** Constant-time comparison of a presented nonce with an expected MAC. */
function matches(presented: Buffer, expected: Buffer): boolean {
  const encoded = Buffer.from(expected.toString('base64url'), 'utf8')
  return presented.length === encoded.length && timingSafeEqual(presented, encoded)
}
