import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sha256Base64url } from './sha256.ts'

describe('sha256Base64url', () => {
  it('isTheSha256OfTheUtf8BytesAsUnpaddedBase64url', () => {
    for (const text of ['', 'hello', 'ünïcødé ✓', '\u{1F600}', 'lone \uD800 surrogate', 'x'.repeat(10_000)]) {
      expect(sha256Base64url(text)).toBe(createHash('sha256').update(text, 'utf8').digest('base64url'))
    }
    expect(sha256Base64url('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0')
  })
})
