import { randomBytes } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { encodeBase64url } from '#crypto'
import * as nodeCrypto from '../crypto-node.ts'
import * as webCrypto from '../crypto-web.ts'
import { decodeBase64url as scriptDecoder } from './base64url.ts'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

// Both platforms' decoders must accept and refuse exactly alike: a state one seals, the other opens.
describe.each([
  ['script', scriptDecoder],
  ['node', nodeCrypto.decodeBase64url],
  ['web', webCrypto.decodeBase64url],
])('base64url decoding (%s)', (_platform, decodeBase64url) => {
  it('roundTripsEveryLengthUpTo64Bytes', () => {
    for (let length = 0; length <= 64; length++) {
      const bytes = randomBytes(length)
      const text = encodeBase64url(bytes)
      expect(text).toBe(bytes.toString('base64url'))
      expect(decodeBase64url(text)).toEqual(new Uint8Array(bytes))
    }
  })

  it('acceptsExactlyTheStringsThatReEncodeToThemselves', () => {
    // Exhaustive over all 1-, 2- and 3-symbol strings: strict decoding ≡ decode, re-encode, compare.
    let accepted = 0
    for (const a of ALPHABET) {
      for (const b of ['', ...ALPHABET]) {
        for (const c of b === '' ? [''] : ['', ...ALPHABET]) {
          const text = a + b + c
          const canonical = Buffer.from(Buffer.from(text, 'base64url')).toString('base64url') === text
          const decoded = decodeBase64url(text)
          expect(decoded !== undefined, text).toBe(canonical)
          if (decoded !== undefined) accepted++
        }
      }
    }
    expect(accepted).toBe(256 + 256 * 256)
  })

  it('rejectsASecondSpellingWithSpareLowBits', () => {
    expect(decodeBase64url('AQ')).toEqual(new Uint8Array([1]))
    expect(decodeBase64url('AR')).toBeUndefined()
    expect(decodeBase64url('AQI')).toEqual(new Uint8Array([1, 2]))
    expect(decodeBase64url('AQJ')).toBeUndefined()
  })

  it('rejectsPaddingStandardAlphabetWhitespaceAndNonAscii', () => {
    for (const text of [
      'AQ==',
      'AQ=',
      'AQI=',
      '+/8A',
      'AQ I',
      ' AQI',
      'AQI\n',
      'A\tQI',
      'AQIé',
      'AQ\u0000I',
      'ÀQIA',
    ]) {
      expect(decodeBase64url(text), JSON.stringify(text)).toBeUndefined()
    }
  })

  it('rejectsALengthOfFourNPlusOne', () => {
    expect(decodeBase64url('A')).toBeUndefined()
    expect(decodeBase64url('AAAAA')).toBeUndefined()
  })

  it('decodesASliceWithoutCopyingTheString', () => {
    expect(decodeBase64url('xx.AQI.yy', 3, 6)).toEqual(new Uint8Array([1, 2]))
    expect(decodeBase64url('AQI', 0, 9)).toBeUndefined()
    expect(decodeBase64url('AQI', 2, 1)).toBeUndefined()
    expect(decodeBase64url('AQI', -1)).toBeUndefined()
  })

  it('refusesEveryStringThatDoesNotReEncodeToItself', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 24 }), (text) => {
        const decoded = decodeBase64url(text)
        const canonical = Buffer.from(Buffer.from(text, 'base64url')).toString('base64url') === text
        return (decoded !== undefined) === canonical
      }),
    )
  })
})
