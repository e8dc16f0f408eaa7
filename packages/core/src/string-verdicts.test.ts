import { describe, expect, it, vi } from 'vitest'
import { RecentVerdicts, StringVerdicts } from './string-verdicts.ts'

describe('StringVerdicts', () => {
  it('decidesEachRememberedValueOnceWhicheverOrderTheyComeIn', () => {
    const decide = vi.fn((value: string) => value.length)
    const verdicts = new StringVerdicts(8, decide)
    for (const value of ['a', 'a', 'bb', 'a', 'bb', 'bb', 'a']) expect(verdicts.of(value)).toBe(value.length)
    expect(decide.mock.calls).toEqual([['a'], ['bb']])
  })

  it('remembersNoMoreThanItsBoundButStillAnswersEveryValue', () => {
    const decide = vi.fn((value: string) => value.toUpperCase())
    const verdicts = new StringVerdicts(2, decide)
    for (const value of ['a', 'b', 'c', 'd']) expect(verdicts.of(value)).toBe(value.toUpperCase())
    expect(verdicts.of('c')).toBe('C')
    expect(verdicts.of('a')).toBe('A')
    // a and b were remembered; c and d were not, so c was decided again (d was the latest).
    expect(decide.mock.calls.map(([value]) => value)).toEqual(['a', 'b', 'c', 'd', 'c'])
  })

  it('keepsAVerdictOfUndefinedAsAVerdict', () => {
    const decide = vi.fn((value: string) => (value === 'ok' ? 'fine' : undefined))
    const verdicts = new StringVerdicts(8, decide)
    expect(verdicts.of('bad')).toBeUndefined()
    expect(verdicts.of('ok')).toBe('fine')
    expect(verdicts.of('bad')).toBeUndefined()
    expect(decide).toHaveBeenCalledTimes(2)
  })
})

describe('RecentVerdicts', () => {
  it('forgetsTheOldestPastItsBoundAndDecidesItAgain', () => {
    const decide = vi.fn((value: string) => value.toUpperCase())
    const verdicts = new RecentVerdicts(2, 16, decide)
    for (const value of ['a', 'b', 'b', 'c', 'c', 'b', 'a'])
      expect(verdicts.of(value)).toBe(value.toUpperCase())
    // c pushed a out; a, decided again, pushed b out.
    expect(decide.mock.calls.map(([value]) => value)).toEqual(['a', 'b', 'c', 'a'])
    expect(verdicts.of('b')).toBe('B')
    expect(decide).toHaveBeenCalledTimes(5)
  })

  it('decidesAStringLongerThanItsMaxLengthEveryTime', () => {
    const decide = vi.fn((value: string) => value.length)
    const verdicts = new RecentVerdicts(8, 4, decide)
    for (const value of ['long!', 'long!', 'tiny', 'tiny']) expect(verdicts.of(value)).toBe(value.length)
    expect(decide.mock.calls.map(([value]) => value)).toEqual(['long!', 'long!', 'tiny'])
  })
})
