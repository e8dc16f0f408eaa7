import { describe, expect, it } from 'vitest'
import { utf8ByteLength } from './task-record.ts'

describe('utf8ByteLength', () => {
  it('countsTheBytesUtf8EncodingWouldTake', () => {
    const texts = [
      '',
      'ascii',
      'é',
      '✓',
      '\u{1F600}',
      'lone \uD800 high',
      'lone \uDC00 low',
      '\uDC00\uD800',
      'mixé✓\u{1F600}',
    ]
    for (const text of texts)
      expect(utf8ByteLength(text), JSON.stringify(text)).toBe(new TextEncoder().encode(text).length)
  })
})
