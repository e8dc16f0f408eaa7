/**
 * @module redis-rate-limit-store.test
 * The RateLimitStore contract against Redis at TESSERA_TEST_REDIS_URL, under a key prefix unique
 * to this run (deleted afterwards); that a bucket's key expires when it is full again and a
 * refusal writes nothing; and a bounded failure without a server. Without the URL the Redis
 * suites are skipped and say why.
 */
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { describeRateLimitStore } from '../../../test/contracts/rate-limit-store-contract.ts'
import { redisRateLimitStore } from './redis-rate-limit-store.ts'

const url = process.env['TESSERA_TEST_REDIS_URL']
const skip = url ? undefined : 'TESSERA_TEST_REDIS_URL is not set'
if (skip) process.stderr.write(`redis-rate-limit-store tests skipped: ${skip}\n`)
const keyPrefix = `tessera-test:${randomBytes(6).toString('hex')}:`

describeRateLimitStore('redis', () => redisRateLimitStore({ url: url!, keyPrefix }), skip ? { skip } : {})

describe.skipIf(!url)('redisRateLimitStore', () => {
  const admin = url ? new Redis(url) : undefined

  afterAll(async () => {
    if (!admin) return
    const keys = await admin.keys(`${keyPrefix}*`)
    if (keys.length > 0) await admin.del(...keys)
    await admin.quit()
  })

  it('letsABucketsKeyExpireWhenItIsFullAgainAndWritesNothingOnARefusal', async () => {
    const store = redisRateLimitStore({ url: url!, keyPrefix })
    try {
      const bucket = { capacity: 2, refillMs: 10_000 }
      await store.take('expiry', bucket)
      // One token short of full: it is back in 10 s.
      const oneTaken = await admin!.pttl(`${keyPrefix}expiry`)
      expect(oneTaken).toBeGreaterThan(9_000)
      expect(oneTaken).toBeLessThanOrEqual(10_000)
      await store.take('expiry', bucket)
      expect(await admin!.pttl(`${keyPrefix}expiry`)).toBeGreaterThan(19_000)
      const before = await admin!.hgetall(`${keyPrefix}expiry`)
      expect((await store.take('expiry', bucket)).allowed).toBe(false)
      expect(await admin!.hgetall(`${keyPrefix}expiry`)).toEqual(before)
    } finally {
      await store.close()
    }
  })

  it('worksOnAClientItDoesNotOwnLeavesItOpenAndRefusesTakesOnceClosed', async () => {
    const client = new Redis(url!)
    const store = redisRateLimitStore({ client, keyPrefix })
    expect((await store.take('borrowed', { capacity: 1, refillMs: 1_000 })).allowed).toBe(true)
    await store.close()
    expect(await client.ping()).toBe('PONG')
    await expect(store.take('borrowed', { capacity: 1, refillMs: 1_000 })).rejects.toMatchObject({
      code: 'TESSERA_STORE_UNAVAILABLE',
    })
    await client.quit()
  })

  it('reloadsItsScriptAfterSCRIPTFLUSH', async () => {
    const store = redisRateLimitStore({ url: url!, keyPrefix })
    await store.take('flush', { capacity: 5, refillMs: 1_000 })
    await admin!.script('FLUSH')
    expect((await store.take('flush', { capacity: 5, refillMs: 1_000 })).remaining).toBe(3)
    await store.close()
  })
})

describe('redisRateLimitStore without a server', () => {
  it('failsATakeWithAStoreErrorInBoundedTime', async () => {
    const store = redisRateLimitStore({ url: 'redis://127.0.0.1:1', keyPrefix, timeoutMs: 500 })
    const t0 = performance.now()
    await expect(store.take('k', { capacity: 1, refillMs: 1_000 })).rejects.toMatchObject({
      code: 'TESSERA_STORE_UNAVAILABLE',
    })
    expect(performance.now() - t0).toBeLessThan(1_500)
    await store.close()
  })

  it('refusesAnUnknownOptionAndABucketItCannotKeep', async () => {
    expect(() => redisRateLimitStore({ url: 'redis://127.0.0.1:1', keyprefix: 'x' } as never)).toThrow(
      /keyprefix.*keyPrefix/,
    )
    const store = redisRateLimitStore({ url: 'redis://127.0.0.1:1', timeoutMs: 500 })
    await expect(store.take('k', { capacity: 0, refillMs: 1_000 })).rejects.toThrow(TypeError)
    await store.close()
  })
})
