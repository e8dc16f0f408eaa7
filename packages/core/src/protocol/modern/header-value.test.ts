import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeHeaderValue, encodeHeaderValue } from './header-value.ts'

const ok = (value: string) => ({ ok: true, value })

describe('decodeHeaderValue', () => {
  it('decodes the examples of SEP-2243', () => {
    expect(decodeHeaderValue('us-west1')).toEqual(ok('us-west1'))
    expect(decodeHeaderValue('=?base64?SGVsbG8sIOS4lueVjA==?=')).toEqual(ok('Hello, 世界'))
    expect(decodeHeaderValue('=?base64?IHBhZGRlZCA=?=')).toEqual(ok(' padded '))
    expect(decodeHeaderValue('=?base64?bGluZTEKbGluZTI=?=')).toEqual(ok('line1\nline2'))
    expect(decodeHeaderValue('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=')).toEqual(ok('=?base64?literal?='))
    expect(decodeHeaderValue('us west 1')).toEqual(ok('us west 1'))
    expect(decodeHeaderValue('')).toEqual(ok(''))
  })

  it('refuses bad padding', () => {
    // "Tokyo" is VG9reW8= — the same symbols without their padding.
    expect(decodeHeaderValue('=?base64?VG9reW8?=')).toMatchObject({ ok: false })
    expect(decodeHeaderValue('=?base64?VG9reW8==?=')).toMatchObject({ ok: false })
    expect(decodeHeaderValue('=?base64?VG9r=W8=?=')).toMatchObject({ ok: false })
  })

  it('refuses characters outside the standard alphabet', () => {
    expect(decodeHeaderValue('=?base64?VG9r#W8=?=')).toMatchObject({ ok: false })
    // URL-safe symbols are a different alphabet.
    expect(decodeHeaderValue('=?base64?-_-_?=')).toMatchObject({ ok: false })
    expect(decodeHeaderValue('=?base64?VG9r eW8=?=')).toMatchObject({ ok: false })
  })

  it('refuses spare low bits in the last symbol (a second spelling of one value)', () => {
    expect(decodeHeaderValue('=?base64?VG9reW8=?=')).toEqual(ok('Tokyo'))
    expect(decodeHeaderValue('=?base64?VG9reW9=?=')).toMatchObject({
      ok: false,
      reason: 'is not canonical Base64',
    })
    expect(decodeHeaderValue('=?base64?QQ==?=')).toEqual(ok('A'))
    expect(decodeHeaderValue('=?base64?QR==?=')).toMatchObject({ ok: false })
  })

  it('refuses bytes that are not UTF-8', () => {
    expect(decodeHeaderValue('=?base64?/w==?=')).toMatchObject({
      ok: false,
      reason: 'does not decode to UTF-8',
    })
    // An encoded lone surrogate (ED A0 80) is not UTF-8 either.
    expect(decodeHeaderValue('=?base64?7aCA?=')).toMatchObject({ ok: false })
  })

  it('keeps a leading byte-order mark', () => {
    expect(decodeHeaderValue('=?base64?77u/cQ==?=')).toEqual(ok('\uFEFFq'))
  })

  it('treats values that only look like a sentinel as literals', () => {
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

  it('decodes an empty sentinel to the empty string', () => {
    expect(decodeHeaderValue('=?base64??=')).toEqual(ok(''))
  })

  it('refuses raw characters outside visible ASCII, space and tab', () => {
    for (const raw of ['caf\u00e9', 'a\u0000b', 'a\x7Fb', 'a\nb', '\u4e16']) {
      expect(decodeHeaderValue(raw)).toMatchObject({ ok: false })
    }
    expect(decodeHeaderValue('a\tb')).toEqual(ok('a\tb'))
  })
})

describe('encodeHeaderValue', () => {
  it('leaves plain visible ASCII alone', () => {
    expect(encodeHeaderValue('eu-central-2')).toBe('eu-central-2')
    expect(encodeHeaderValue('a b')).toBe('a b')
    expect(encodeHeaderValue('')).toBe('')
  })

  it('encodes what clients must encode', () => {
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

  it('round-trips every well-formed string through the decoder', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        expect(decodeHeaderValue(encodeHeaderValue(value))).toEqual(ok(value))
      }),
    )
  })
})
