/**
 * @module memory-rate-limit-store.test
 * The memory store meets the RateLimitStore contract, forgets the least recently used bucket
 * past `maxKeys` (it is full again), and refuses a bucket that is no bucket.
 */
import { describe, expect, it } from 'vitest'
import { describeRateLimitStore } from '../../../../../test/contracts/rate-limit-store-contract.ts'
import { memoryRateLimitStore } from './memory-rate-limit-store.ts'

describeRateLimitStore('memory', () => memoryRateLimitStore())

describe('memoryRateLimitStore', () => {
  it('forgetsTheLeastRecentlyUsedBucketPastMaxKeys', async () => {
    const store = memoryRateLimitStore({ maxKeys: 2, now: () => 0 })
    const bucket = { capacity: 1, refillMs: 1000 }
    await store.take('a', bucket)
    await store.take('b', bucket)
    await store.take('a', bucket)
    await store.take('c', bucket)
    // 'b' was the least recently used: forgotten, it is full again; 'c' is still empty.
    expect((await store.take('b', bucket)).allowed).toBe(true)
    expect((await store.take('c', bucket)).allowed).toBe(false)
  })

  it('refusesABucketThatIsNoBucket', async () => {
    const store = memoryRateLimitStore()
    await expect(store.take('k', { capacity: 0, refillMs: 10 })).rejects.toThrow(TypeError)
    await expect(store.take('k', { capacity: 1, refillMs: 0 })).rejects.toThrow(TypeError)
    expect(() => memoryRateLimitStore({ maxKey: 3 } as never)).toThrow(/maxKey.*maxKeys/)
  })
})
