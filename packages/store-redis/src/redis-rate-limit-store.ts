/**
 * @module redis-rate-limit-store
 * Rate-limit buckets in Redis, shared by every process and host that reaches it. A bucket is a
 * hash (its tokens and when they were counted) whose key expires when the bucket is full again:
 * a bucket without a key is full. A take is one Lua script (read, refill for the time passed,
 * take, write), so two takes of one key, from anywhere, never both get the last token; the time
 * is the Redis server's (TIME), so hosts with skewed clocks refill alike. The arithmetic is core's
 * `takeToken`, written again in Lua. A refused take writes nothing: the bucket as it was refills
 * to the same tokens later, and a flood of refusals costs Redis no writes.
 */
import {
  assertBucket,
  assertKnownOptions,
  type BucketTake,
  type OptionNames,
  positiveInteger,
  type RateLimitStore,
  withStoreTimeout,
} from '@tessera/core/ports'
import {
  CONNECTION_OPTION_NAMES,
  type ConnectionOptions,
  evalScript,
  NOW_MS,
  openConnection,
  script,
} from './redis-connection.ts'

/** The connection of `redisRateLimitStore`, the prefix of its keys and the bound on its calls. */
export interface RedisRateLimitStoreOptions extends ConnectionOptions {
  /** Prefix of every bucket's key. Default `tessera:rate-limit:`. */
  keyPrefix?: string
  /** Bound on every call, including connecting. Default 2000. */
  timeoutMs?: number
}

const OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  keyPrefix: true,
  timeoutMs: true,
} as const satisfies OptionNames<RedisRateLimitStoreOptions>

// Fields: t tokens (fractions kept, %.17g loses nothing), a when they were counted (ms, server
// clock). ARGV: capacity, refill ms. Lua numbers reach the caller as integers, so the reply is
// {allowed 1/0, whole tokens left, ms until a token is back}.
const TAKE = script(`${NOW_MS}
local capacity = tonumber(ARGV[1])
local refill = tonumber(ARGV[2])
local r = redis.call('HMGET', KEYS[1], 't', 'a')
local tokens = capacity
if r[1] then
  tokens = math.min(capacity, tonumber(r[1]) + math.max(0, now - tonumber(r[2])) / refill)
end
if tokens < 1 then return {0, 0, math.ceil((1 - tokens) * refill)} end
local left = tokens - 1
redis.call('HSET', KEYS[1], 't', string.format('%.17g', left), 'a', now)
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil((capacity - left) * refill)))
return {1, math.floor(left), 0}`)

/**
 * A `RateLimitStore` in Redis: every process and host that reaches it takes from the same buckets.
 *
 * @example
 * ```ts
 * import { createServer } from '@tessera/core'
 * import { redisRateLimitStore } from '@tessera/store-redis'
 *
 * const app = createServer({
 *   name: 'ops',
 *   version: '1.0.0',
 *   rateLimits: { caller: { calls: 60, perMs: 60_000 } },
 *   stores: { rateLimits: redisRateLimitStore({ url: process.env.REDIS_URL }) },
 * })
 * ```
 */
export function redisRateLimitStore(options: RedisRateLimitStoreOptions): RateLimitStore {
  assertKnownOptions(options, OPTION_NAMES, 'redisRateLimitStore', { required: true })
  const timeoutMs = positiveInteger(options.timeoutMs ?? 2000, 'timeoutMs')
  const prefix = options.keyPrefix ?? 'tessera:rate-limit:'
  if (typeof prefix !== 'string') throw new TypeError(`invalid keyPrefix: ${String(prefix)}`)
  const { client, release } = openConnection(options, 'redisRateLimitStore', { timeoutMs })
  let closed = false

  return {
    async take(key, bucket): Promise<BucketTake> {
      assertBucket(bucket)
      // A closed store refuses even on a client that stays open (a borrowed or shared one).
      const reply = closed
        ? Promise.reject(new Error('redis rate limit store is not open'))
        : evalScript(client, TAKE, [prefix + key], [bucket.capacity, bucket.refillMs])
      const [allowed, remaining, retryAfterMs] = (await withStoreTimeout(
        'take',
        reply,
        timeoutMs,
      )) as number[]
      return { allowed: allowed === 1, remaining: remaining ?? 0, retryAfterMs: retryAfterMs ?? 0 }
    },
    async close() {
      closed = true
      await release()
    },
  }
}
