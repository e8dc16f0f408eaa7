/**
 * @module rate-limit-store
 * The `RateLimitStore` port: token buckets every instance of a server shares, each taken from in
 * one atomic step (read, refill for the time passed, take one token, write), so a limit holds
 * across workers and hosts instead of multiplying by their number. The bucket of a key that was
 * never taken from, or was left alone long enough to fill up, is full.
 */

/** A bucket's shape: how many tokens it holds when full, and how long one token takes to come back. */
export interface TokenBucket {
  /** The burst: tokens in a full bucket (at least 1). */
  readonly capacity: number
  /** Milliseconds for one token to come back (a limit of 10 calls a minute: 6000). */
  readonly refillMs: number
}

/** What taking one token from a bucket found. */
export interface BucketTake {
  /** Whether a token was taken: the request may go on. */
  readonly allowed: boolean
  /** Whole tokens left after this take. */
  readonly remaining: number
  /** When refused, how long until a token is back (ms); 0 when allowed. */
  readonly retryAfterMs: number
}

/**
 * Where the buckets of rate limits live (`stores.rateLimits`). `take` must be atomic: two takes of
 * one key at once, from any instances, never both get the last token.
 */
export interface RateLimitStore {
  /** Takes one token from the bucket `key` of shape `bucket`, refilled for the time since its last take. */
  take(key: string, bucket: TokenBucket): Promise<BucketTake>
  /** Releases what the store holds (connections); takes after it fail. */
  close(): Promise<void>
}

/** One bucket's state: its tokens (fractions included) as of `at` (ms since the epoch). */
export interface BucketState {
  tokens: number
  at: number
}

/**
 * The arithmetic of one take, the same in every store: `state` refilled from its `at` to `now`
 * (a missing state is a full bucket), then one token taken if there is one. Returns the new state
 * and what the take found. Stores whose engine runs its own code (a Redis script, SQL) write the
 * same steps there.
 */
export function takeToken(
  state: BucketState | undefined,
  bucket: TokenBucket,
  now: number,
): { state: BucketState; take: BucketTake } {
  const elapsed = state === undefined ? 0 : Math.max(0, now - state.at)
  const tokens =
    state === undefined
      ? bucket.capacity
      : Math.min(bucket.capacity, state.tokens + elapsed / bucket.refillMs)
  if (tokens >= 1) {
    const left = tokens - 1
    return {
      state: { tokens: left, at: now },
      take: { allowed: true, remaining: Math.floor(left), retryAfterMs: 0 },
    }
  }
  const retryAfterMs = Math.ceil((1 - tokens) * bucket.refillMs)
  return { state: { tokens, at: now }, take: { allowed: false, remaining: 0, retryAfterMs } }
}

/** A TypeError unless `bucket` is a bucket a store can keep (positive, finite, a whole capacity). */
export function assertBucket(bucket: TokenBucket): void {
  if (!Number.isSafeInteger(bucket?.capacity) || bucket.capacity < 1)
    throw new TypeError('A bucket needs a whole capacity of at least 1.')
  if (!Number.isFinite(bucket.refillMs) || bucket.refillMs <= 0)
    throw new TypeError('A bucket needs a positive refillMs.')
}
