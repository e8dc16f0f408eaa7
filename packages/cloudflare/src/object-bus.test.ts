/**
 * @module object-bus.test
 * The object's fan-out keeps each sender's messages in the order it numbered them: a call that
 * overtook an earlier one waits for it while the sender says it is in flight, and no longer than
 * `GAP_WAIT_MS` when it never comes.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { GAP_WAIT_MS, MAX_BUS_BATCH, ObjectBus } from './object-bus.ts'

/** A bus with one subscribed socket, and the numbers of what reached it, in order. */
function busWithOneSocket(): { bus: ObjectBus; seen: number[] } {
  const seen: number[] = []
  const socket = { send: (message: string) => seen.push((JSON.parse(message) as { seq: number }).seq) }
  return { bus: new ObjectBus(() => [socket]), seen }
}

const message = (seq: number, origin = 'isolate-a') =>
  JSON.stringify({ origin, seq, event: { type: 'tools/list_changed' } })

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('ObjectBus', () => {
  it('aSendersFirstCallOvertakenByItsSecondStillGoesOutFirst', () => {
    const { bus, seen } = busWithOneSocket()
    bus.publish([message(1)], 0)
    expect(seen).toEqual([])
    bus.publish([message(0)], 0)
    expect(seen).toEqual([0, 1])
  })

  it('aCallSlowerThanTheOnesAfterItKeepsItsTurnWithinTheWait', () => {
    const { bus, seen } = busWithOneSocket()
    bus.publish([message(0)], 0)
    bus.publish([message(2), message(3)], 1)
    bus.publish([message(4)], 1)
    vi.advanceTimersByTime(GAP_WAIT_MS - 1)
    expect(seen).toEqual([0])
    bus.publish([message(1)], 1)
    expect(seen).toEqual([0, 1, 2, 3, 4])
  })

  it('aCallThatNeverComesHoldsTheLaterOnesForTheWaitAtMost', () => {
    const { bus, seen } = busWithOneSocket()
    bus.publish([message(0)], 0)
    bus.publish([message(2)], 1)
    vi.advanceTimersByTime(GAP_WAIT_MS - 1)
    expect(seen).toEqual([0])
    vi.advanceTimersByTime(1)
    expect(seen).toEqual([0, 2])
    // Come after all, it goes out rather than never.
    bus.publish([message(1)], 1)
    expect(seen).toEqual([0, 2, 1])
  })

  it('theSendersNextCallEndsTheWaitForACallNoLongerInFlight', () => {
    const { bus, seen } = busWithOneSocket()
    bus.publish([message(0)], 0)
    bus.publish([message(2)], 1)
    // Call 1 failed or was torn down: the sender's next call says 3 is the lowest in flight.
    bus.publish([message(3)], 3)
    expect(seen).toEqual([0, 2, 3])
  })

  it('aGapAfterTheFirstOneIsWaitedForToo', () => {
    const { bus, seen } = busWithOneSocket()
    bus.publish([message(0)], 0)
    bus.publish([message(2), message(4)], 1)
    vi.advanceTimersByTime(GAP_WAIT_MS)
    expect(seen).toEqual([0, 2])
    vi.advanceTimersByTime(GAP_WAIT_MS)
    expect(seen).toEqual([0, 2, 4])
  })

  it('aSenderHeardOfAgainAfterARestartStartsWhereItsCallsAre', () => {
    const { bus, seen } = busWithOneSocket()
    bus.publish([message(41)], 41)
    bus.publish([message(42)], 42)
    expect(seen).toEqual([41, 42])
  })

  it('keepsEachSendersOrderApartFromTheOthers', () => {
    const { bus, seen } = busWithOneSocket()
    bus.publish([message(0, 'isolate-a')], 0)
    bus.publish([message(1, 'isolate-b')], 0)
    bus.publish([message(5, 'isolate-c')], 5)
    expect(seen).toEqual([0, 5])
    bus.publish([message(0, 'isolate-b')], 0)
    expect(seen).toEqual([0, 5, 0, 1])
  })

  it('sendsAMessageWithoutANumberAtOnce', () => {
    const { bus, seen } = busWithOneSocket()
    bus.publish([message(1)], 0)
    bus.publish([JSON.stringify({ seq: 7 })], 0)
    expect(seen).toEqual([7])
  })

  it('refusesACallItCannotTakeBeforeSendingAnyOfIt', () => {
    const { bus, seen } = busWithOneSocket()
    expect(() => bus.publish(Array.from({ length: MAX_BUS_BATCH + 1 }, (_, i) => message(i)))).toThrow(
      RangeError,
    )
    const notAString: unknown = 7
    expect(() => bus.publish([message(0), notAString] as string[])).toThrow(RangeError)
    expect(() => bus.publish([message(0)], 0.5)).toThrow(RangeError)
    expect(seen).toEqual([])
  })
})
