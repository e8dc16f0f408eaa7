import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeHeaderValue } from '../header-value.ts'
import type { HeaderView } from '../header-view.ts'
import { checkParamHeaders, mirrorHeaderValue } from './check-param-headers.ts'
import { buildMirrorTable, type MirroredType } from './mirror-table.ts'

function headerView(record: Record<string, string | string[]>): HeaderView {
  const values = new Map(Object.entries(record).map(([name, value]) => [name.toLowerCase(), [value].flat()]))
  return { get: (name) => values.get(name)?.[0], isRepeated: (name) => (values.get(name)?.length ?? 0) > 1 }
}

const tableFor = (type: MirroredType) =>
  buildMirrorTable('probe', {
    type: 'object',
    properties: { outer: { type: 'object', properties: { value: { type, 'x-mcp-header': 'Probe' } } } },
  })
const TABLES = { string: tableFor('string'), integer: tableFor('integer'), boolean: tableFor('boolean') }

type Body = string | number | boolean

const declared = (body: Body): MirroredType =>
  typeof body === 'number' ? 'integer' : (typeof body as 'string' | 'boolean')

/** Checks `body` against the header a conforming client renders for `mirrored`. */
function accepts(body: Body, mirrored: Body): boolean {
  const header = mirrorHeaderValue(mirrored)
  expect(header).toBeDefined()
  const args = { outer: { value: body } }
  return (
    checkParamHeaders(TABLES[declared(body)], args, headerView({ 'Mcp-Param-Probe': header ?? '' })) ===
    undefined
  )
}

// Pieces that stress the encoder: whitespace at the edges, controls, BOM, astral and CJK
// characters, and the sentinel markers themselves.
const PIECES = [
  ' ',
  '\t',
  '\n',
  '\r',
  '\x00',
  '\x7F',
  '\uFEFF',
  '世',
  '😀',
  'é',
  '=?base64?',
  '?=',
  '=',
  'a',
  'Z',
  '9',
  '?',
]
const tricky = fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 12 })
const sentinelLooking = fc
  .tuple(fc.constantFrom('=?base64?', '=?BASE64?', ''), fc.base64String(), fc.constantFrom('?=', '', '=?'))
  .map((parts) => parts.join(''))
const strings = fc.oneof(fc.string({ unit: 'binary' }), tricky, sentinelLooking, fc.string())
const integers = fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -1000, max: 1000 }))
const bodies: fc.Arbitrary<Body> = fc.oneof(strings, integers, fc.boolean())

/** A different value of the same JSON type. */
function perturb(body: Body, seed: string, delta: number): Body {
  if (typeof body === 'boolean') return !body
  if (typeof body === 'number') return body + delta > Number.MAX_SAFE_INTEGER ? body - delta : body + delta
  return `${body}${seed}`
}

const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/

describe('mirror round trip (property)', () => {
  it('acceptsTheHeaderAConformingClientRendersForTheBody', () => {
    fc.assert(
      fc.property(bodies, (body) => {
        expect(accepts(body, body)).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it('refusesTheHeaderRenderedForAnyOtherValueOfTheSameType', () => {
    const seeds = fc.string({ unit: fc.constantFrom(...PIECES), minLength: 1, maxLength: 3 })
    fc.assert(
      fc.property(bodies, seeds, fc.integer({ min: 1, max: 2 ** 40 }), (body, seed, delta) => {
        expect(accepts(body, perturb(body, seed, delta))).toBe(false)
      }),
      { numRuns: 2000 },
    )
  })

  it('acceptsAnotherValueExactlyWhenItsRenderingIsTheSameForAnyPairOfValues', () => {
    fc.assert(
      fc.property(bodies, bodies, (body, other) => {
        // An integer body legitimately accepts other spellings of its number ("42.0" for 42).
        const decoded =
          typeof other === 'string' ? decodeHeaderValue(mirrorHeaderValue(other) ?? '') : undefined
        fc.pre(!(typeof body === 'number' && decoded?.ok === true && JSON_NUMBER.test(decoded.value)))
        expect(accepts(body, other)).toBe(mirrorHeaderValue(body) === mirrorHeaderValue(other))
      }),
      { numRuns: 3000 },
    )
  })

  it('acceptsEveryNumericSpellingOfAnIntegerBodyThatDenotesTheSameValue', () => {
    const spellings = (n: number) => [String(n), `${n}.0`, `${n}e0`, `${BigInt(n) * 10n}e-1`, `${n}.000E+0`]
    fc.assert(
      fc.property(integers, (n) => {
        for (const header of spellings(n)) {
          const view = headerView({ 'mcp-param-probe': header })
          expect(checkParamHeaders(TABLES.integer, { outer: { value: n } }, view), header).toBeUndefined()
        }
      }),
    )
  })
})
