/**
 * @module redis-replay-store.test
 * The Redis store runs the shared contract against TESSERA_TEST_REDIS_URL, under a key
 * prefix unique to this run (deleted afterwards); without the URL the suite is skipped
 * and says why.
 */
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { describeReplayStore } from '../../../test/contracts/replay-store-contract.ts'
import { redisReplayStore } from './redis-replay-store.ts'

const url = process.env['TESSERA_TEST_REDIS_URL']
const skip = url ? undefined : 'TESSERA_TEST_REDIS_URL is not set'
if (skip) process.stderr.write(`redis-replay-store tests skipped: ${skip}\n`)
const keyPrefix = `tessera-test:${randomBytes(6).toString('hex')}:`

describeReplayStore('redis', () => redisReplayStore({ url: url!, keyPrefix }), skip ? { skip } : {})

describe.skipIf(!url)('redisReplayStore', () => {
  const admin = url ? new Redis(url) : undefined

  afterAll(async () => {
    if (!admin) return
    const keys = await admin.keys(`${keyPrefix}*`)
    if (keys.length > 0) await admin.del(...keys)
    await admin.quit()
  })

  it('letsRedisExpireTheRecordItself', async () => {
    const store = redisReplayStore({ url: url!, keyPrefix })
    await store.claim('expiry', 'x', 1_000, 30_000)
    const ttl = await admin!.pttl(`${keyPrefix}expiry`)
    expect(ttl).toBeGreaterThan(25_000)
    expect(ttl).toBeLessThanOrEqual(30_000)
    await store.close()
  })

  it('worksOnAClientItDoesNotOwnLeavesItOpenAndRefusesCallsOnceClosed', async () => {
    const client = new Redis(url!)
    const store = redisReplayStore({ client, keyPrefix })
    expect((await store.claim('borrowed', 'x', 1_000, 1_000)).kind).toBe('claimed')
    await store.close()
    expect(await client.ping()).toBe('PONG')
    await expect(store.claim('borrowed-2', 'x', 1_000, 1_000)).rejects.toMatchObject({
      code: 'TESSERA_STORE_UNAVAILABLE',
    })
    await client.quit()
  })

  it('reloadsItsScriptsAfterSCRIPTFLUSH', async () => {
    const store = redisReplayStore({ url: url!, keyPrefix })
    await store.claim('flush-1', 'x', 1_000, 1_000)
    await admin!.script('FLUSH')
    expect((await store.claim('flush-2', 'x', 1_000, 1_000)).kind).toBe('claimed')
    await store.close()
  })
})

describe('redisReplayStore without a server', () => {
  it('failsACallWithAStoreErrorInBoundedTime', async () => {
    const store = redisReplayStore({ url: 'redis://127.0.0.1:1', keyPrefix, timeoutMs: 500 })
    const t0 = performance.now()
    await expect(store.claim('k', 'x', 1_000, 1_000)).rejects.toMatchObject({
      code: 'TESSERA_STORE_UNAVAILABLE',
    })
    expect(performance.now() - t0).toBeLessThan(1_500)
    await store.close()
  })
})
