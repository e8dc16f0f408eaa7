/**
 * @module memory-replay-store.test
 * The memory store runs the shared contract; a second "connection" must share records,
 * so the factory hands out one instance, and close() is made idempotent for that.
 */
import { describe, expect, it } from 'vitest'
import { describeReplayStore } from '../../../../../test/contracts/replay-store-contract.ts'
import { memoryReplayStore } from './memory-replay-store.ts'
import type { ReplayStore } from './replay-store.ts'

const shared = memoryReplayStore()
const sharedView: ReplayStore = { ...shared, close: async () => {} }
describeReplayStore('memory', () => sharedView)

describe('memoryReplayStore', () => {
  it('movesWithAnInjectedClockWithoutWaiting', async () => {
    let now = 1_000
    const store = memoryReplayStore({ now: () => now })
    const claim = await store.claim('k', 'x', 100, 1_000)
    expect(claim.kind).toBe('claimed')
    now += 101
    expect(await store.inspect('k')).toEqual({ status: 'abandoned', what: 'x' })
    expect(await store.claim('k', 'x', 100, 1_000)).toMatchObject({ kind: 'claimed', previous: 'abandoned' })
    now += 2_000
    expect(await store.inspect('k')).toBeUndefined()
  })

  it('sweepsExpiredRecordsSoTheMapStaysBoundedByLiveKeys', async () => {
    let now = 0
    const store = memoryReplayStore({ now: () => now, sweepEvery: 10 })
    for (let i = 0; i < 9; i++) await store.claim(`old-${i}`, 'x', 10, 10)
    now += 100
    await store.claim('new', 'x', 10, 10)
    now -= 100
    // Had the sweep not run, the old records would be visible again at the earlier time.
    expect(await store.inspect('old-0')).toBeUndefined()
  })

  it('rejectsBadArguments', async () => {
    const store = memoryReplayStore()
    await expect(store.claim('', 'x', 10, 10)).rejects.toThrow(TypeError)
    await expect(store.claim('k', 'x', 0, 10)).rejects.toThrow(RangeError)
    await expect(store.claim('k', 'x', 10, Number.NaN)).rejects.toThrow(RangeError)
  })
})
