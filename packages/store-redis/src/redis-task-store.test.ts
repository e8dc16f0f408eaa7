/**
 * @module redis-task-store.test
 * The TaskStore contract, run against Redis (TESSERA_TEST_REDIS_URL, under a key prefix unique to
 * this run and deleted afterwards; without the URL the suites are skipped and say why), plus what
 * only the Redis store has: the key expires natively at the task's expiry, and two stores (as two
 * hosts) race to replace one task.
 */
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { describeTaskStore, nextOf, sampleTask } from '../../../test/contracts/task-store-contract.ts'
import { redisTaskStore } from './redis-task-store.ts'

const url = process.env['TESSERA_TEST_REDIS_URL']
const skip = url ? undefined : 'TESSERA_TEST_REDIS_URL is not set'
if (skip) process.stderr.write(`redis-task-store tests skipped: ${skip}\n`)
const keyPrefix = `tessera-test:${randomBytes(6).toString('hex')}:task:`

describeTaskStore('redis', () => redisTaskStore({ url: url!, keyPrefix }), skip ? { skip } : {})

describe.skipIf(!url)('redisTaskStore', () => {
  const admin = url ? new Redis(url) : undefined

  afterAll(async () => {
    if (!admin) return
    const keys = await admin.keys(`${keyPrefix}*`)
    if (keys.length > 0) await admin.del(...keys)
    await admin.quit()
  })

  it('letsRedisExpireTheKeyAtTheTasksExpiry', async () => {
    const store = redisTaskStore({ url: url!, keyPrefix })
    try {
      const task = sampleTask({ expiresAt: Date.now() + 60_000 })
      await store.create(task)
      const ttl = await admin!.pttl(`${keyPrefix}${task.id}`)
      expect(ttl).toBeGreaterThan(50_000)
      await store.replace(task.id, 1, nextOf(task, { expiresAt: null, ttlMs: null }))
      expect(await admin!.pttl(`${keyPrefix}${task.id}`)).toBe(-1)
    } finally {
      await store.close()
    }
  })

  it('letsOneOfTwoInstancesWinAReplacement', async () => {
    const a = redisTaskStore({ url: url!, keyPrefix })
    const b = redisTaskStore({ url: url!, keyPrefix })
    try {
      const task = sampleTask()
      await a.create(task)
      const results = await Promise.all([
        a.replace(task.id, 1, nextOf(task, { statusMessage: 'a' })),
        b.replace(task.id, 1, nextOf(task, { statusMessage: 'b' })),
      ])
      expect(results.filter(Boolean)).toHaveLength(1)
    } finally {
      await a.close()
      await b.close()
    }
  })
})
