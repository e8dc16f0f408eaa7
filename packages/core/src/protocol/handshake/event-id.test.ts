/**
 * @module event-id.test
 * The one event-id rule every store follows: `formatEventId` and `parseEventId` are inverses,
 * each event has exactly one id (anything not in the canonical form names no event), and
 * `assertStreamId` admits exactly the stream ids an id can carry.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { assertStreamId, formatEventId, MAX_STREAM_ID_LENGTH, parseEventId } from './event-id.ts'

/** Stream ids an event id can carry: 1 to 256 characters, none of them `/`. */
const streamIds = fc
  .string({ minLength: 1, maxLength: MAX_STREAM_ID_LENGTH, unit: 'binary' })
  .filter((id) => !id.includes('/') && id.length <= MAX_STREAM_ID_LENGTH)
const seqs = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })

describe('formatEventId / parseEventId', () => {
  it('formatsStreamIdSlashSeq', () => {
    expect(formatEventId('abc.def', 1)).toBe('abc.def/1')
    expect(formatEventId('s', 42)).toBe('s/42')
  })

  it('readsBackWhatItFormatsForEveryStreamIdAndSeq', () => {
    fc.assert(
      fc.property(streamIds, seqs, (streamId, seq) => {
        expect(parseEventId(formatEventId(streamId, seq))).toEqual({ streamId, seq })
      }),
    )
  })

  it('givesEachEventOneIdWhateverItReadsFormatsBackToTheVerySameText', () => {
    const near = fc.oneof(
      fc.string(),
      fc
        .tuple(streamIds, fc.string({ unit: fc.constantFrom('0', '1', '9', '-', '+', '.', 'e', ' ', '/') }))
        .map(([stream, tail]) => `${stream}/${tail}`),
    )
    fc.assert(
      fc.property(near, (text) => {
        const parsed = parseEventId(text)
        if (parsed !== undefined) expect(formatEventId(parsed.streamId, parsed.seq)).toBe(text)
      }),
    )
  })

  it('namesNoEventForAnythingElse', () => {
    for (const bad of [
      'abc',
      '',
      's/',
      's/0',
      's/01',
      's/-1',
      's/+1',
      's/1.5',
      's/1.0',
      's/1e3',
      's/0x1',
      's/ 1',
      's/1 ',
      '/1',
      'a/b/1',
      `${'x'.repeat(MAX_STREAM_ID_LENGTH + 1)}/1`,
      's/9007199254740992',
      's/99999999999999999',
    ]) {
      expect(parseEventId(bad), bad).toBeUndefined()
    }
    for (const notText of [undefined, null, 1, ['s/1'], { streamId: 's', seq: 1 }]) {
      expect(parseEventId(notText)).toBeUndefined()
    }
  })

  it('readsTheEdgesOfTheRule', () => {
    expect(parseEventId('s/1')).toEqual({ streamId: 's', seq: 1 })
    expect(parseEventId(`s/${Number.MAX_SAFE_INTEGER}`)).toEqual({
      streamId: 's',
      seq: Number.MAX_SAFE_INTEGER,
    })
    const longest = 'x'.repeat(MAX_STREAM_ID_LENGTH)
    expect(parseEventId(`${longest}/7`)).toEqual({ streamId: longest, seq: 7 })
  })
})

describe('assertStreamId', () => {
  it('admitsExactlyTheStreamIdsAnEventIdCanCarry', () => {
    fc.assert(
      fc.property(streamIds, (streamId) => {
        expect(() => assertStreamId(streamId)).not.toThrow()
      }),
    )
    for (const bad of ['', 'a/b', '/', 'x'.repeat(MAX_STREAM_ID_LENGTH + 1), undefined, 7]) {
      expect(() => assertStreamId(bad), String(bad)).toThrow(TypeError)
    }
  })
})
