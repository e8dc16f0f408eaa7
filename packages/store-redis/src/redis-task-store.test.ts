/**
 * @module redis-task-store.test
 * The TaskStore contract, run against Redis (TESSERA_TEST_REDIS_URL, under a key prefix unique to
 * this run and deleted afterwards; without the URL the suites are skipped and say why), plus what
 * only the Redis store has: the key expires natively at the task's expiry, an owner's set of task
 * ids expires with its latest task and is never read as a task, and two stores (as two hosts)
 * race to replace one task and to fill an owner's last places.
 */
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import {
  describeTaskStore,
  freshOwner,
  nextOf,
  raceForOwnersPlaces,
  sampleTask,
} from '../../../test/contracts/task-store-contract.ts'
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

  it('letsTheOwnersSetExpireWithItsLatestTask', async () => {
    const store = redisTaskStore({ url: url!, keyPrefix })
    try {
      const owner = freshOwner()
      const ownerKey = `${keyPrefix}owner:${owner}`
      const soon = sampleTask({ owner, expiresAt: Date.now() + 20_000 })
      const later = sampleTask({ owner, expiresAt: Date.now() + 60_000 })
      await store.create(soon, { maxPerOwner: 5 })
      await store.create(later, { maxPerOwner: 5 })
      expect(await admin!.pttl(ownerKey)).toBeGreaterThan(50_000)
      expect(await admin!.zscore(ownerKey, later.id)).toBe(String(later.expiresAt))
      // A task kept for ever keeps the set for ever; once it has an expiry again, the set has one.
      await store.replace(later.id, 1, nextOf(later, { expiresAt: null, ttlMs: null }))
      expect(await admin!.pttl(ownerKey)).toBe(-1)
      const moved = Date.now() + 30_000
      await store.replace(later.id, 2, { ...nextOf(later, { expiresAt: moved }), version: 3 })
      expect(await admin!.zscore(ownerKey, later.id)).toBe(String(moved))
      expect(await admin!.pttl(ownerKey)).toBeGreaterThan(25_000)
      expect(await admin!.pttl(ownerKey)).toBeLessThanOrEqual(30_000)
    } finally {
      await store.close()
    }
  })

  it('neverReadsAnOwnersSetAsATask', async () => {
    const store = redisTaskStore({ url: url!, keyPrefix })
    try {
      const owner = freshOwner()
      const task = sampleTask({ owner })
      await store.create(task, { maxPerOwner: 5 })
      const id = `owner:${owner}`
      expect(await store.get(id)).toBeUndefined()
      expect(await store.replace(id, 1, nextOf(sampleTask({ id, owner })))).toBe(false)
      expect(await admin!.zcard(`${keyPrefix}${id}`)).toBe(1)
    } finally {
      await store.close()
    }
  })

  it('letsTwoInstancesFillAnOwnersPlacesOnlyUpToItsBound', async () => {
    const a = redisTaskStore({ url: url!, keyPrefix })
    const b = redisTaskStore({ url: url!, keyPrefix })
    try {
      const { tasks, created } = await raceForOwnersPlaces(a, b, 20, 5)
      expect(created).toBe(5)
      expect(await admin!.zcard(`${keyPrefix}owner:${tasks[0]!.owner}`)).toBe(5)
    } finally {
      await a.close()
      await b.close()
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
