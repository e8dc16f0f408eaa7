/**
 * @module event-store.test
 * The EventStore contract for the in-memory store, beside it (the same suite every shared store
 * runs), and the wakeups of the streams' followers.
 */
import { describe, expect, it } from 'vitest'
import { describeEventStore } from '../../../../../test/contracts/event-store-contract.ts'
import { createFollowerWakeups, memoryEventStore } from './event-store.ts'

describeEventStore('memory', (options) => memoryEventStore(options))

describe('createFollowerWakeups', () => {
  it('wakesAPausedFollowerOfItsStreamAtOnceAndOnlyOfItsStream', async () => {
    const wakeups = createFollowerWakeups(10_000)
    const signal = new AbortController().signal
    let woken = ''
    const a = wakeups.pause('a', signal).then(() => {
      woken += 'a'
    })
    const b = wakeups.pause('b', signal).then(() => {
      woken += 'b'
    })
    wakeups.wake('a')
    await a
    expect(woken).toBe('a')
    wakeups.wakeAll()
    await b
    expect(woken).toBe('ab')
  })

  it('endsAPauseOnAbortAndAfterPollMs', async () => {
    const wakeups = createFollowerWakeups(20)
    const controller = new AbortController()
    const paused = wakeups.pause('s', controller.signal)
    controller.abort()
    await paused
    const t0 = performance.now()
    await wakeups.pause('s', new AbortController().signal)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(15)
  })
})
