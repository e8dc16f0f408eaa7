/**
 * @module rate-limit-store-contract
 * The behaviour every RateLimitStore must show, as a vitest suite a store's own test file calls:
 * a full bucket gives its burst and then refuses with the time until a token is back, tokens come
 * back with time, keys never share a bucket, and parallel takes never get one token twice.
 */
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { RateLimitStore } from '@tessera/core/ports'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

type MakeStore = () => RateLimitStore | Promise<RateLimitStore>

/** Registers the contract suite for one store; `skip` names why it cannot run here. */
export function describeRateLimitStore(name: string, make: MakeStore, options: { skip?: string } = {}): void {
  if (options.skip !== undefined) {
    describe.skip(`RateLimitStore contract: ${name} (skipped: ${options.skip})`, () => {
      it.skip(`skippedBecause${options.skip}`, () => {})
    })
    return
  }
  describe(`RateLimitStore contract: ${name}`, () => {
    let store: RateLimitStore
    const run = randomBytes(6).toString('hex')
    let counter = 0
    const freshKey = (): string => `contract:${run}:${++counter}`

    beforeAll(async () => {
      store = await make()
    })
    afterAll(async () => {
      await store?.close()
    })

    it('givesAFullBucketsBurstThenRefusesWithTheTimeUntilATokenIsBack', async () => {
      const key = freshKey()
      const bucket = { capacity: 3, refillMs: 60_000 }
      const takes = []
      for (let i = 0; i < 4; i++) takes.push(await store.take(key, bucket))
      expect(takes.map((take) => take.allowed)).toEqual([true, true, true, false])
      expect(takes.map((take) => take.remaining)).toEqual([2, 1, 0, 0])
      expect(takes[3]!.retryAfterMs).toBeGreaterThan(55_000)
      expect(takes[3]!.retryAfterMs).toBeLessThanOrEqual(60_000)
    })

    it('givesTokensBackWithTime', async () => {
      const key = freshKey()
      const bucket = { capacity: 1, refillMs: 150 }
      expect((await store.take(key, bucket)).allowed).toBe(true)
      expect((await store.take(key, bucket)).allowed).toBe(false)
      await sleep(200)
      expect((await store.take(key, bucket)).allowed).toBe(true)
    })

    it('keepsEveryKeyInABucketOfItsOwn', async () => {
      const bucket = { capacity: 1, refillMs: 60_000 }
      const [a, b] = [freshKey(), freshKey()]
      expect((await store.take(a, bucket)).allowed).toBe(true)
      expect((await store.take(b, bucket)).allowed).toBe(true)
      expect((await store.take(a, bucket)).allowed).toBe(false)
    })

    it('neverGivesOneTokenToTwoParallelTakes', async () => {
      const key = freshKey()
      const bucket = { capacity: 10, refillMs: 600_000 }
      const takes = await Promise.all(Array.from({ length: 50 }, () => store.take(key, bucket)))
      expect(takes.filter((take) => take.allowed)).toHaveLength(10)
    })
  })
}
