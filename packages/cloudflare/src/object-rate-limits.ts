/**
 * @module object-rate-limits
 * The rate-limit buckets inside the Durable Object, in its SQLite storage: one row per bucket with
 * its tokens, when they were counted and when it is full again. A take is synchronous, so read,
 * refill, take and write are one atomic step: the object runs one call at a time. The arithmetic
 * is core's `takeToken`; the clock is the object's, the one clock every isolate's take meets.
 * Rows of buckets full again are swept now and then: a bucket without a row is full.
 */
import type { SqlStorage } from 'cloudflare:workers'
import { type BucketState, type BucketTake, type TokenBucket, takeToken } from '@tessera/core/ports'

/** Takes between two sweeps of the rows of buckets that are full again. */
const SWEEP_EVERY = 1024

export class ObjectRateLimits {
  readonly #sql: SqlStorage
  #takes = 0

  constructor(sql: SqlStorage) {
    this.#sql = sql
    sql.exec(`CREATE TABLE IF NOT EXISTS tessera_rate_limits (
      key TEXT PRIMARY KEY NOT NULL,
      tokens REAL NOT NULL,
      at INTEGER NOT NULL,
      full_at INTEGER NOT NULL
    )`)
    sql.exec('CREATE INDEX IF NOT EXISTS tessera_rate_limits_full_at ON tessera_rate_limits (full_at)')
  }

  take(key: string, bucket: TokenBucket): BucketTake {
    const now = Date.now()
    if (++this.#takes % SWEEP_EVERY === 0)
      this.#sql.exec('DELETE FROM tessera_rate_limits WHERE full_at <= ?', now)
    const row = this.#sql
      .exec<{ tokens: number; at: number }>('SELECT tokens, at FROM tessera_rate_limits WHERE key = ?', key)
      .toArray()[0]
    const { state, take } = takeToken(row as BucketState | undefined, bucket, now)
    this.#sql.exec(
      `INSERT INTO tessera_rate_limits (key, tokens, at, full_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET tokens = excluded.tokens, at = excluded.at, full_at = excluded.full_at`,
      key,
      state.tokens,
      state.at,
      now + Math.ceil((bucket.capacity - state.tokens) * bucket.refillMs),
    )
    return take
  }
}
