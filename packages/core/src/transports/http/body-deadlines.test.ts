import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BodyDeadlines } from './body-deadlines.ts'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('BodyDeadlines', () => {
  it('expiresAnEntryOnceItsTimeoutHasPassedAndNotBefore', () => {
    const deadlines = new BodyDeadlines(100)
    const expire = vi.fn()
    deadlines.add(expire)
    vi.advanceTimersByTime(99)
    expect(expire).not.toHaveBeenCalled()
    vi.advanceTimersByTime(10)
    expect(expire).toHaveBeenCalledOnce()
    vi.advanceTimersByTime(1_000)
    expect(expire).toHaveBeenCalledOnce()
  })

  it('neverExpiresACancelledEntry', () => {
    const deadlines = new BodyDeadlines(100)
    const expire = vi.fn()
    deadlines.add(expire).cancel()
    vi.advanceTimersByTime(500)
    expect(expire).not.toHaveBeenCalled()
  })

  it('expiresOnlyTheOverdueEntries', () => {
    const deadlines = new BodyDeadlines(100)
    const first = vi.fn()
    const second = vi.fn()
    deadlines.add(first)
    vi.advanceTimersByTime(50)
    deadlines.add(second)
    vi.advanceTimersByTime(60)
    expect(first).toHaveBeenCalledOnce()
    expect(second).not.toHaveBeenCalled()
    vi.advanceTimersByTime(50)
    expect(second).toHaveBeenCalledOnce()
  })

  it('sharesOneTimerAndStopsItWhenNothingIsPending', () => {
    const deadlines = new BodyDeadlines(10_000)
    const pending = Array.from({ length: 100 }, () => deadlines.add(() => {}))
    expect(vi.getTimerCount()).toBe(1)
    for (const deadline of pending) deadline.cancel()
    vi.advanceTimersByTime(1_000)
    expect(vi.getTimerCount()).toBe(0)
    deadlines.add(() => {})
    expect(vi.getTimerCount()).toBe(1)
  })
  it('expiresTheOthersWhenOneInTheMiddleIsCancelledAndCancellingTwiceChangesNothing', () => {
    const deadlines = new BodyDeadlines(100)
    const expired: string[] = []
    const first = deadlines.add(() => expired.push('first'))
    const middle = deadlines.add(() => expired.push('middle'))
    deadlines.add(() => expired.push('last'))
    middle.cancel()
    middle.cancel()
    first.cancel()
    const later = deadlines.add(() => expired.push('later'))
    vi.advanceTimersByTime(110)
    expect(expired).toEqual(['last', 'later'])
    later.cancel()
    vi.advanceTimersByTime(1_000)
    expect(expired).toEqual(['last', 'later'])
    expect(vi.getTimerCount()).toBe(0)
  })
})
