/**
 * @module result-size.test
 * A result's size is the bytes of its JSON in UTF-8, one to four per character; the JSON a call
 * measured is reused for that very result only.
 */
import { describe, expect, it } from 'vitest'
import { encodingOf, oversize } from './result-size.ts'

describe('oversize', () => {
  it('countsEachCharacterAsTheBytesUtf8SendsItIn', () => {
    const json = (text: string) => JSON.stringify({ t: text })
    // {"t":"…"} is 8 bytes around the text.
    expect(oversize(json('a'.repeat(10)), 17)).toBe(18)
    expect(oversize(json('é'.repeat(10)), 27)).toBe(28)
    expect(oversize(json('€'.repeat(10)), 37)).toBe(38)
    expect(oversize(json('😀'.repeat(10)), 47)).toBe(48)
    expect(oversize(json('😀'.repeat(10)), 48)).toBeUndefined()
  })
})

describe('encodingOf', () => {
  it('reusesTheMeasuredJsonOfThatVeryResultAndEncodesAnyOtherAfresh', () => {
    const result = { t: 'ok' }
    const measured = { result, json: '{"t":"measured"}' }
    expect(encodingOf(result, measured)).toBe('{"t":"measured"}')
    expect(encodingOf({ ...result }, measured)).toBe('{"t":"ok"}')
    expect(encodingOf(result, undefined)).toBe('{"t":"ok"}')
  })
})
