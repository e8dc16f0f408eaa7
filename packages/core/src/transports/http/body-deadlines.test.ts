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
    const cancel = deadlines.add(expire)
    cancel()
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
    const cancels = Array.from({ length: 100 }, () => deadlines.add(() => {}))
    expect(vi.getTimerCount()).toBe(1)
    for (const cancel of cancels) cancel()
    vi.advanceTimersByTime(1_000)
    expect(vi.getTimerCount()).toBe(0)
    deadlines.add(() => {})
    expect(vi.getTimerCount()).toBe(1)
  })
})
