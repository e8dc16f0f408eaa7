import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson, MAX_CANONICAL_DEPTH } from './canonical-json.ts'

function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8))
  view.setBigUint64(0, BigInt(`0x${hex}`))
  return view.getFloat64(0)
}

function nested(depth: number): unknown {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { k: value }
  return value
}

describe('canonicalJson', () => {
  it('matchesTheRfc8785Section322Example', () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],' +
        '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    )
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    )
  })

  it('sortsNonAsciiKeysByUtf16CodeUnitsAsRfc8785Section323', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    }
    // The emoji (U+1F600, surrogates D83D DE00) sorts before U+FB33 by code units, after it by code points.
    const order = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'] as const
    const expected = order.map((key) => `${JSON.stringify(key)}:${JSON.stringify(input[key])}`).join(',')
    expect(canonicalJson(input)).toBe(`{${expected}}`)
  })

  it('formatsNumbersAsRfc8785AppendixB', () => {
    const cases: [string, string][] = [
      ['0000000000000000', '0'],
      ['8000000000000000', '0'],
      ['0000000000000001', '5e-324'],
      ['7fefffffffffffff', '1.7976931348623157e+308'],
      ['4340000000000000', '9007199254740992'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['44b52d02c7e14af5', '9.999999999999997e+22'],
      ['44b52d02c7e14af6', '1e+23'],
      ['4430000000000000', '295147905179352830000'],
      ['becbf647612f3696', '-0.0000033333333333333333'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ]
    for (const [bits, text] of cases) expect(canonicalJson(fromBits(bits)), bits).toBe(text)
    expect(canonicalJson(1e21)).toBe('1e+21')
    expect(canonicalJson(1e20)).toBe('100000000000000000000')
    expect(canonicalJson(-0)).toBe('0')
    expect(canonicalJson(JSON.parse('1.0'))).toBe(canonicalJson(1))
  })

  it('writesAnObjectItIsToldTheTextOfAsThatText', () => {
    const form = Object.freeze({
      type: 'object',
      properties: Object.freeze({ ok: Object.freeze({ type: 'boolean' }) }),
    })
    const known = new WeakMap<object, string>([[form, canonicalJson(form)]])
    const question = { method: 'elicitation/create', params: { message: 'Go?', requestedSchema: form } }
    expect(canonicalJson(question, known)).toBe(canonicalJson(question))
    // The kept text is what is written: it is trusted, not checked.
    known.set(form, '"kept"')
    expect(canonicalJson(question, known)).toBe(
      '{"method":"elicitation/create","params":{"message":"Go?","requestedSchema":"kept"}}',
    )
  })

  it('keepsTheContainerType', () => {
    expect(canonicalJson({ '1': 'one', '0': 'zero' })).toBe('{"0":"zero","1":"one"}')
    expect(canonicalJson(['zero', 'one'])).toBe('["zero","one"]')
    expect(canonicalJson({})).not.toBe(canonicalJson([]))
    expect(canonicalJson({ '0': 'a' })).not.toBe(canonicalJson(['a']))
  })

  it('writesNoWhitespaceAndSkipsUndefinedMembers', () => {
    expect(canonicalJson({ b: [1, { d: null, c: true }], a: undefined, e: '' })).toBe(
      '{"b":[1,{"c":true,"d":null}],"e":""}',
    )
    expect(canonicalJson(Object.assign(Object.create(null), { z: 1, y: 2 }))).toBe('{"y":2,"z":1}')
  })

  it('writesEveryStringAndKeyAsJsonStringifyDoes', () => {
    const tricky = [
      '',
      'plain ascii',
      'quote " inside',
      'back\\slash',
      'tab\tnewline\ncontrol\u0001\u001f',
      'del \u007f and next line \u0085',
      'separators \u2028 \u2029',
      'accents é and € and 漢字',
      'a pair 😀',
      'a lone high \ud800 here',
      'a lone low \udfff here',
      'reversed \udc00\ud800',
    ]
    for (const text of tricky) {
      expect(canonicalJson(text)).toBe(JSON.stringify(text))
      expect(canonicalJson({ [text]: text })).toBe(`{${JSON.stringify(text)}:${JSON.stringify(text)}}`)
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => canonicalJson(text) === JSON.stringify(text)),
    )
  })

  it('throwsTypeErrorOnNonJsonValues', () => {
    const bad: unknown[] = [
      undefined,
      () => 1,
      10n,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Symbol('s'),
      new Date(0),
      new Map(),
      [undefined],
      { f: () => 1 },
      { n: 1n },
    ]
    for (const value of bad) expect(() => canonicalJson(value)).toThrow(TypeError)
  })

  it('guardsDepthWithARangeError', () => {
    expect(() => canonicalJson(nested(MAX_CANONICAL_DEPTH))).not.toThrow()
    expect(() => canonicalJson(nested(MAX_CANONICAL_DEPTH + 1))).toThrow(RangeError)
    const cycle: Record<string, unknown> = {}
    cycle['self'] = cycle
    expect(() => canonicalJson(cycle)).toThrow(RangeError)
  })

  it('isIdempotentAndIgnoresKeyOrder', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        const text = canonicalJson(value)
        expect(canonicalJson(JSON.parse(text))).toBe(text)
        const reversed = JSON.parse(JSON.stringify(value), (_key, v) =>
          v !== null && typeof v === 'object' && !Array.isArray(v)
            ? Object.fromEntries(Object.entries(v).reverse())
            : v,
        )
        expect(canonicalJson(reversed)).toBe(text)
      }),
    )
  })
})
