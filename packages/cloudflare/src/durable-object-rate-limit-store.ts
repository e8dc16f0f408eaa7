/**
 * @module durable-object-rate-limit-store
 * Rate-limit buckets in the Durable Object: each take is one RPC, and the object runs it as one
 * step, so the isolates of a Worker share every limit. A take that fails is a store error, which
 * the limiter turns into a refusal unless the limit allows requests through a store outage.
 */
import { assertBucket, type RateLimitStore, toStoreError } from '@tessera/core/ports'
import type { StubOf } from './object-stub.ts'

export function durableObjectRateLimitStore(stub: StubOf): RateLimitStore {
  let closed = false
  return {
    async take(key, bucket) {
      assertBucket(bucket)
      try {
        if (closed) throw new Error('the Durable Object rate limit store is closed')
        // Only the bucket's shape crosses: the object never sees more than it keeps.
        return await stub().takeToken(key, { capacity: bucket.capacity, refillMs: bucket.refillMs })
      } catch (error) {
        throw toStoreError('take', error)
      }
    },
    async close() {
      closed = true
    },
  }
}
