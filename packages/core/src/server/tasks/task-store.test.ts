/**
 * @module task-store.test
 * The TaskStore contract on the in-memory store, and its bound on the number of tasks.
 */
import { describe, expect, it } from 'vitest'
import { describeTaskStore, sampleTask } from '../../../../../test/contracts/task-store-contract.ts'
import { memoryTaskStore } from './task-store.ts'

describeTaskStore('memory', () => memoryTaskStore())

describe('memoryTaskStore', () => {
  it('refusesANewTaskWhenFullOfLiveOnes', async () => {
    const store = memoryTaskStore({ maxTasks: 2 })
    expect(await store.create(sampleTask())).toBe('created')
    expect(await store.create(sampleTask())).toBe('created')
    expect(await store.create(sampleTask())).toBe('full')
  })

  it('makesRoomByDroppingExpiredTasks', async () => {
    let now = 1_000_000
    const store = memoryTaskStore({ maxTasks: 1, now: () => now })
    expect(await store.create(sampleTask({ expiresAt: now + 10 }))).toBe('created')
    now += 20
    expect(await store.create(sampleTask({ expiresAt: now + 10 }))).toBe('created')
  })
})
