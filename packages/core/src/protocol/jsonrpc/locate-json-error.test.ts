import { describe, expect, it } from 'vitest'
import { locateJsonError } from './locate-json-error.ts'

/** The 1-based line and column of the first occurrence of `marker` in `text`. */
function positionOf(text: string, marker: string): { line: number; column: number } {
  const offset = text.indexOf(marker)
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 }
}

function expectAt(text: string, line: number, column: number): void {
  const at = locateJsonError(text)
  expect({ line: at.line, column: at.column }).toEqual({ line, column })
}

describe('locateJsonError', () => {
  it('pointsAtAnUnexpectedTokenOnALaterLine', () => {
    const text = '{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": "tools/list" oops\n}'
    const at = locateJsonError(text)
    expect(at).toMatchObject(positionOf(text, 'oops'))
    expect(at.line).toBe(4)
    expect(text[at.offset]).toBe('o')
  })

  it('pointsAtATrailingComma', () => {
    expectAt('{"a":1,}', 1, 8)
    expectAt('[1,2,]', 1, 6)
  })

  it('pointsAtAMissingColonOrValue', () => {
    expectAt('{"a" 1}', 1, 6)
    expectAt('{"a":}', 1, 6)
    expectAt('{"a":1 "b":2}', 1, 8)
  })

  it('pointsAtAnUnquotedKey', () => {
    expectAt('{\n  method: "x"\n}', 2, 3)
  })

  it('pointsPastTheEndOfTruncatedInput', () => {
    expectAt('[1,2', 1, 5)
    expectAt('{"a":"unterminated', 1, 19)
    expectAt('{\n"a": [1,\n', 3, 1)
  })

  it('pointsAtTheStartOfEmptyOrBlankInput', () => {
    expectAt('', 1, 1)
    expectAt('  \n ', 2, 2)
  })

  it('pointsAtTrailingGarbageAfterAValue', () => {
    expectAt('{} x', 1, 4)
    expectAt('01', 1, 2)
    expectAt('1.', 1, 2)
    expectAt('{"a":1}\n}', 2, 1)
  })

  it('pointsAtBadLiteralsAndNumbers', () => {
    expectAt('[tru]', 1, 2)
    expectAt('[-]', 1, 2)
    expectAt('[+1]', 1, 2)
    expectAt('{"a": NaN}', 1, 7)
  })

  it('pointsAtAControlCharacterOrBadEscapeInAString', () => {
    expectAt('{"a":"x\ty"}', 1, 8)
    expectAt('"\\x"', 1, 3)
    const badUnicode = locateJsonError('"\\u12G4"')
    // Somewhere inside the broken \u escape (columns 2-7), never before it.
    expect(badUnicode.column).toBeGreaterThanOrEqual(2)
    expect(badUnicode.column).toBeLessThanOrEqual(7)
  })

  it('treatsCrlfAsOneLineBreak', () => {
    expectAt('{\r\n"a":\r\n}', 3, 1)
  })

  it('refusesAByteOrderMarkAtTheStart', () => {
    expectAt('\uFEFF{}', 1, 1)
  })

  it('agreesWithJsonParseThatValidTextHasNoErrorInside', () => {
    const text = '{"a":[1,2,{"b":null}],"c":"\\u00e9"}'
    expect(() => JSON.parse(text)).not.toThrow()
    expect(locateJsonError(text).offset).toBe(text.length)
  })

  // A number is read whole however long it is: the error is the ']' after the trailing comma.
  it('pointsPastANumberLongerThan400Digits', () => {
    const text = `[${'1'.repeat(500)},]`
    expectAt(text, 1, 503)
  })

  // Nesting depth alone is no error: 600 '[' closed by 599 ']' breaks at the end of the input.
  it('pointsAtTheRealErrorInADeeplyNestedDocument', () => {
    expectAt(`${'['.repeat(600)}${']'.repeat(599)}`, 1, 1200)
  })
})
