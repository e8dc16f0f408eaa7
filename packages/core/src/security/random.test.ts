import { describe, expect, it } from 'vitest'
import { pooledRandomBytes, randomId } from './random.ts'

describe('pooledRandomBytes', () => {
  it('givesEveryValueItsOwnFreshBytesAcrossPoolRefills', () => {
    // 1,000 values of 16 bytes span four refills of the 4 KiB pool.
    const values = Array.from({ length: 1000 }, () => pooledRandomBytes(16))
    expect(new Set(values.map((b) => Buffer.from(b).toString('hex'))).size).toBe(1000)
    expect(values.every((b) => b.length === 16 && b.buffer.byteLength >= 16)).toBe(true)
  })

  it('handsOutBuffersThatLaterDrawsDoNotOverwrite', () => {
    const first = pooledRandomBytes(12)
    const copy = first.slice()
    for (let i = 0; i < 400; i++) pooledRandomBytes(32)
    expect(first).toEqual(copy)
  })

  it('refusesASizeOutsideOneTo256', () => {
    for (const size of [0, -1, 257, 1.5, Number.NaN])
      expect(() => pooledRandomBytes(size)).toThrow(RangeError)
  })
})

describe('randomId', () => {
  it('spellsItsBytesAsUnpaddedBase64url', () => {
    expect(randomId(12)).toMatch(/^[A-Za-z0-9_-]{16}$/)
    expect(randomId(16)).toMatch(/^[A-Za-z0-9_-]{22}$/)
  })
})
