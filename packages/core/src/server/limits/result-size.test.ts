/**
 * @module result-size.test
 * A result's size is the bytes of its JSON in UTF-8, one to four per character; a result within
 * its budget keeps the JSON it was measured with, for its encoder.
 */
import { describe, expect, it } from 'vitest'
import { measuredEncoding } from '../encoding-key.ts'
import { oversize } from './result-size.ts'

describe('oversize', () => {
  it('countsEachCharacterAsTheBytesUtf8SendsItIn', () => {
    // {"t":"…"} is 8 bytes around the text.
    expect(oversize({ t: 'a'.repeat(10) }, 17)).toBe(18)
    expect(oversize({ t: 'é'.repeat(10) }, 27)).toBe(28)
    expect(oversize({ t: '€'.repeat(10) }, 37)).toBe(38)
    expect(oversize({ t: '😀'.repeat(10) }, 47)).toBe(48)
    expect(oversize({ t: '😀'.repeat(10) }, 48)).toBeUndefined()
  })

  it('keepsTheJsonOfAResultWithinItsBudget', () => {
    const fits = { t: 'ok' }
    expect(oversize(fits, 100)).toBeUndefined()
    expect(measuredEncoding(fits)).toBe('{"t":"ok"}')
    const over = { t: 'x'.repeat(200) }
    expect(oversize(over, 100)).toBe(208)
    expect(measuredEncoding(over)).toBeUndefined()
  })
})
