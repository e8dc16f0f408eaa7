import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeHeaderValue, encodeHeaderValue } from './header-value.ts'

const ok = (value: string) => ({ ok: true, value })

describe('decodeHeaderValue', () => {
  it('decodesTheExamplesOfSep2243', () => {
    expect(decodeHeaderValue('us-west1')).toEqual(ok('us-west1'))
    expect(decodeHeaderValue('=?base64?SGVsbG8sIOS4lueVjA==?=')).toEqual(ok('Hello, 世界'))
    expect(decodeHeaderValue('=?base64?IHBhZGRlZCA=?=')).toEqual(ok(' padded '))
    expect(decodeHeaderValue('=?base64?bGluZTEKbGluZTI=?=')).toEqual(ok('line1\nline2'))
    expect(decodeHeaderValue('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=')).toEqual(ok('=?base64?literal?='))
    expect(decodeHeaderValue('us west 1')).toEqual(ok('us west 1'))
    expect(decodeHeaderValue('')).toEqual(ok(''))
  })

  it('refusesBadPadding', () => {
    // "Tokyo" is VG9reW8= — the same symbols without their padding.
    expect(decodeHeaderValue('=?base64?VG9reW8?=')).toMatchObject({ ok: false })
    expect(decodeHeaderValue('=?base64?VG9reW8==?=')).toMatchObject({ ok: false })
    expect(decodeHeaderValue('=?base64?VG9r=W8=?=')).toMatchObject({ ok: false })
  })

  it('refusesCharactersOutsideTheStandardAlphabet', () => {
    expect(decodeHeaderValue('=?base64?VG9r#W8=?=')).toMatchObject({ ok: false })
    // URL-safe symbols are a different alphabet.
    expect(decodeHeaderValue('=?base64?-_-_?=')).toMatchObject({ ok: false })
    expect(decodeHeaderValue('=?base64?VG9r eW8=?=')).toMatchObject({ ok: false })
  })

  it('refusesSpareLowBitsInTheLastSymbolASecondSpellingOfOneValue', () => {
    expect(decodeHeaderValue('=?base64?VG9reW8=?=')).toEqual(ok('Tokyo'))
    expect(decodeHeaderValue('=?base64?VG9reW9=?=')).toMatchObject({
      ok: false,
      reason: 'is not canonical Base64',
    })
    expect(decodeHeaderValue('=?base64?QQ==?=')).toEqual(ok('A'))
    expect(decodeHeaderValue('=?base64?QR==?=')).toMatchObject({ ok: false })
  })

  it('refusesBytesThatAreNotUtf8', () => {
    expect(decodeHeaderValue('=?base64?/w==?=')).toMatchObject({
      ok: false,
      reason: 'does not decode to UTF-8',
    })
    // An encoded lone surrogate (ED A0 80) is not UTF-8 either.
    expect(decodeHeaderValue('=?base64?7aCA?=')).toMatchObject({ ok: false })
  })

  it('keepsALeadingByteOrderMark', () => {
    expect(decodeHeaderValue('=?base64?77u/cQ==?=')).toEqual(ok('\uFEFFq'))
  })

  it('treatsValuesThatOnlyLookLikeASentinelAsLiterals', () => {
    for (const raw of [
      '=?base64?VG9reW8=',
      'VG9reW8=?=',
      '=?BASE64?VG9reW8=?=',
      '=?Base64?VG9reW8=?=',
      '=?base64?=',
    ]) {
      expect(decodeHeaderValue(raw)).toEqual(ok(raw))
    }
  })

  it('decodesAnEmptySentinelToTheEmptyString', () => {
    expect(decodeHeaderValue('=?base64??=')).toEqual(ok(''))
  })

  it('refusesRawCharactersOutsideVisibleAsciiSpaceAndTab', () => {
    for (const raw of ['caf\u00e9', 'a\u0000b', 'a\x7Fb', 'a\nb', '\u4e16']) {
      expect(decodeHeaderValue(raw)).toMatchObject({ ok: false })
    }
    expect(decodeHeaderValue('a\tb')).toEqual(ok('a\tb'))
  })
})

describe('encodeHeaderValue', () => {
  it('leavesPlainVisibleAsciiAlone', () => {
    expect(encodeHeaderValue('eu-central-2')).toBe('eu-central-2')
    expect(encodeHeaderValue('a b')).toBe('a b')
    expect(encodeHeaderValue('')).toBe('')
  })

  it('encodesWhatClientsMustEncode', () => {
    for (const value of [
      ' lead',
      'trail ',
      '\ttab',
      'in\ttab',
      'nl\n',
      'ümlaut',
      'del\x7F',
      '=?base64?x?=',
    ]) {
      expect(encodeHeaderValue(value)).toMatch(/^=\?base64\?[A-Za-z0-9+/=]*\?=$/)
    }
  })

  it('roundTripsEveryWellFormedStringThroughTheDecoder', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        expect(decodeHeaderValue(encodeHeaderValue(value))).toEqual(ok(value))
      }),
    )
  })
})
