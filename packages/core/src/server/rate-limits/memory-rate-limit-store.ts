/**
 * @module memory-rate-limit-store
 * A `RateLimitStore` in process memory: the default of a server without `stores.rateLimits`, and
 * right for one process only, since another worker or host keeps buckets of its own (the limit is
 * then multiplied by their number). Bounded: past `maxKeys`, the least recently used bucket is
 * forgotten, and so full again.
 */
import { assertKnownOptions, type OptionNames } from '../../option-checks.ts'
import {
  assertBucket,
  type BucketState,
  type BucketTake,
  type RateLimitStore,
  type TokenBucket,
  takeToken,
} from './rate-limit-store.ts'

/** Options of `memoryRateLimitStore`. */
export interface MemoryRateLimitStoreOptions {
  /** Buckets kept at most (default 100 000); beyond it the least recently used one is forgotten (it is full again). */
  maxKeys?: number
  /** Clock in epoch milliseconds; injectable so tests can move time without waiting. */
  now?: () => number
}

const OPTION_NAMES = { maxKeys: true, now: true } as const satisfies OptionNames<MemoryRateLimitStoreOptions>

/**
 * Rate-limit buckets in this process's memory (one process only).
 *
 * @example
 * ```ts
 * import { createServer } from '@tessera/core'
 * import { memoryRateLimitStore } from '@tessera/core/ports'
 *
 * const app = createServer({
 *   name: 'ops',
 *   version: '1.0.0',
 *   rateLimits: { caller: { calls: 60, perMs: 60_000 } },
 *   stores: { rateLimits: memoryRateLimitStore({ maxKeys: 10_000 }) },
 * })
 * ```
 */
export function memoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): RateLimitStore {
  assertKnownOptions(options, OPTION_NAMES, 'memoryRateLimitStore')
  const now = options.now ?? Date.now
  const maxKeys = options.maxKeys ?? 100_000
  if (!Number.isSafeInteger(maxKeys) || maxKeys < 1)
    throw new RangeError('memoryRateLimitStore: maxKeys must be a positive integer.')
  // Insertion order is use order: a bucket taken from moves to the end, and the first is the
  // least recently used.
  const buckets = new Map<string, BucketState>()
  let closed = false

  return {
    async take(key: string, bucket: TokenBucket): Promise<BucketTake> {
      if (closed) throw new Error('memoryRateLimitStore: closed.')
      assertBucket(bucket)
      const before = buckets.get(key)
      const { state, take } = takeToken(before, bucket, now())
      buckets.delete(key)
      if (before === undefined && buckets.size >= maxKeys) buckets.delete(buckets.keys().next().value!)
      buckets.set(key, state)
      return take
    },
    async close(): Promise<void> {
      closed = true
      buckets.clear()
    },
  }
}
