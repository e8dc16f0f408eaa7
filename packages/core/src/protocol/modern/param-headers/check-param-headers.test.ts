import { describe, expect, it } from 'vitest'
import type { HeaderView } from '../header-view.ts'
import { checkParamHeaders, mirrorHeaders, mirrorHeaderValue, resolvePath } from './check-param-headers.ts'
import { buildMirrorTable } from './mirror-table.ts'

/** Headers as a transport would hand them over; an array is a header sent more than once. */
function headerView(record: Record<string, string | string[]>): HeaderView {
  const values = new Map<string, string[]>()
  for (const [name, value] of Object.entries(record)) {
    const key = name.toLowerCase()
    values.set(key, [...(values.get(key) ?? []), ...(Array.isArray(value) ? value : [value])])
  }
  return {
    get: (name) => values.get(name)?.[0],
    isRepeated: (name) => (values.get(name)?.length ?? 0) > 1,
  }
}

const table = buildMirrorTable('provision', {
  type: 'object',
  properties: {
    datacenter: { type: 'string', 'x-mcp-header': 'Datacenter' },
    shards: { type: 'integer', 'x-mcp-header': 'Shards' },
    dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
    placement: {
      type: 'object',
      properties: { rack: { type: 'string', 'x-mcp-header': 'Rack' } },
    },
  },
})

const check = (args: unknown, headers: Record<string, string | string[]>) =>
  checkParamHeaders(table, args, headerView(headers))
const only = (name: string) =>
  buildMirrorTable('t', { type: 'object', properties: { v: { type: name, 'x-mcp-header': 'V' } } })
const checkOne = (type: string, body: unknown, header: string | string[] | undefined) =>
  checkParamHeaders(
    only(type),
    { v: body },
    headerView(header === undefined ? {} : { 'Mcp-Param-V': header }),
  )

describe('checkParamHeaders: presence', () => {
  it('acceptsACompleteMatchingSetOfMirrors', () => {
    const args = { datacenter: 'ams3', shards: 12, dryRun: false, placement: { rack: 'r-07' } }
    const headers = { 'Mcp-Param-Datacenter': 'ams3', 'mcp-param-shards': '12', 'MCP-PARAM-DRY-RUN': 'false' }
    expect(check(args, { ...headers, 'Mcp-Param-Rack': 'r-07' })).toBeUndefined()
  })

  it('skipsArgumentsThatAreAbsentAndIgnoresTheirHeaders', () => {
    expect(check(undefined, {})).toBeUndefined()
    expect(check({}, { 'Mcp-Param-Datacenter': 'anything', 'Mcp-Param-Shards': 'x' })).toBeUndefined()
    expect(check({ placement: {} }, {})).toBeUndefined()
  })

  it('skipsJsonNullWithOrWithoutAHeader', () => {
    expect(check({ datacenter: null, shards: null }, {})).toBeUndefined()
    expect(check({ datacenter: null }, { 'Mcp-Param-Datacenter': 'null' })).toBeUndefined()
    expect(check({ placement: { rack: null } }, { 'Mcp-Param-Rack': '=?base64?!!?=' })).toBeUndefined()
  })

  it('resolvesNestedPathsThroughTheArguments', () => {
    expect(check({ placement: { rack: 'r-12' } }, { 'Mcp-Param-Rack': 'r-12' })).toBeUndefined()
    expect(check({ placement: { rack: 'r-12' } }, { 'Mcp-Param-Rack': 'r-13' })?.message).toMatch(
      /Mcp-Param-Rack.*'r-13'.*'r-12'.*'placement\.rack'/,
    )
    expect(check({ placement: { rack: 'r-12' } }, {})?.message).toBe(
      "Missing Mcp-Param-Rack header for argument 'placement.rack'.",
    )
  })

  it('treatsAStepThatIsNotAnObjectAsAbsent', () => {
    expect(check({ placement: 'r-12' }, {})).toBeUndefined()
    expect(check({ placement: ['r-12'] }, {})).toBeUndefined()
    expect(check({ placement: null }, {})).toBeUndefined()
    expect(check('not-an-object', {})).toBeUndefined()
  })

  it('neverResolvesThroughThePrototype', () => {
    const proto = buildMirrorTable('t', {
      type: 'object',
      properties: { constructor: { type: 'string', 'x-mcp-header': 'Ctor' } },
    })
    expect(checkParamHeaders(proto, {}, headerView({}))).toBeUndefined()
    expect(resolvePath(JSON.parse('{"__proto__": {"x": "own"}}'), ['__proto__', 'x'])).toBe('own')
    expect(resolvePath({}, ['__proto__'])).toBeUndefined()
  })

  it('refusesAMissingHeaderNamingIt', () => {
    expect(check({ datacenter: 'fra1' }, {})?.message).toBe(
      "Missing Mcp-Param-Datacenter header for argument 'datacenter'.",
    )
    expect(check({ dryRun: true }, { 'Mcp-Param-Datacenter': 'true' })?.message).toMatch(
      /Missing Mcp-Param-Dry-Run/,
    )
  })

  it('refusesARepeatedHeaderEvenWithEqualValues', () => {
    expect(check({ datacenter: 'fra1' }, { 'Mcp-Param-Datacenter': ['fra1', 'fra1'] })?.message).toBe(
      'Mcp-Param-Datacenter header was sent more than once.',
    )
    const differentCase = headerView({ 'Mcp-Param-Shards': '3', 'mcp-param-shards': '3' })
    expect(checkParamHeaders(table, { shards: 3 }, differentCase)?.message).toMatch(/more than once/)
  })

  it('acceptsAnEmptyValueForAnEmptyString', () => {
    expect(checkOne('string', '', '')).toBeUndefined()
    expect(checkOne('string', '', undefined)?.message).toMatch(/Missing/)
  })
})

describe('checkParamHeaders: strings and the Base64 sentinel', () => {
  it('comparesStringsExactlyAfterDecoding', () => {
    expect(checkOne('string', 'Zürich', '=?base64?WsO8cmljaA==?=')).toBeUndefined()
    expect(checkOne('string', '  lead', '=?base64?ICBsZWFk?=')).toBeUndefined()
    expect(checkOne('string', 'tab\there', 'tab\there')).toBeUndefined()
    expect(checkOne('string', 'Zurich', 'zurich')?.message).toMatch(/Header mismatch/)
    expect(checkOne('string', 'Zurich', 'Zurich ')?.message).toMatch(/Header mismatch/)
  })

  it('refusesSentinelsWithBadPaddingBadCharactersOrSpareLowBits', () => {
    // "Oslo" is T3Nsbw==.
    for (const raw of [
      '=?base64?T3Nsbw?=',
      '=?base64?T3Nsbw=?=',
      '=?base64?T3N*bw==?=',
      '=?base64?T3Nsbx==?=',
    ]) {
      expect(checkOne('string', 'Oslo', raw)?.message, raw).toMatch(
        /^Mcp-Param-V header value is not (canonical|valid) Base64\.$/,
      )
    }
    expect(checkOne('string', 'Oslo', '=?base64?T3Nsbw==?=')).toBeUndefined()
  })

  it('refusesInvalidUtf8AndRawCharactersOutsideVisibleAscii', () => {
    expect(checkOne('string', '\uFFFD', '=?base64?gA==?=')?.message).toMatch(/UTF-8/)
    expect(checkOne('string', 'Oslo\u00e9', 'Oslo\u00e9')?.message).toMatch(/outside visible ASCII/)
  })

  it('takesSentinelLookingValuesLiterallyWhenTheBodyHoldsThemLiterally', () => {
    for (const literal of ['=?base64?T3Nsbw==', 'T3Nsbw==?=', '=?BASE64?T3Nsbw==?=']) {
      expect(checkOne('string', literal, literal), literal).toBeUndefined()
      expect(checkOne('string', 'Oslo', literal)?.message).toMatch(/Header mismatch/)
    }
  })

  it('needsTheSentinelForABodyThatIsItselfSentinelShaped', () => {
    const body = '=?base64?T3Nsbw==?='
    expect(checkOne('string', body, body)?.message).toMatch(/Header mismatch/)
    expect(checkOne('string', body, mirrorHeaderValue(body))).toBeUndefined()
  })

  it('cannotMatchALoneSurrogateWhichNoHeaderCanCarry', () => {
    expect(checkOne('string', '\uD83D', mirrorHeaderValue('\uD83D'))?.message).toMatch(/Header mismatch/)
  })
})

describe('checkParamHeaders: integers', () => {
  it('comparesNumericallyThroughTheJsonNumberGrammar', () => {
    for (const header of [
      '1000',
      '1e3',
      '1E3',
      '100.0e1',
      '1000.000',
      '10000e-1',
      '0.001e6',
      '=?base64?MWUz?=',
    ]) {
      expect(checkOne('integer', 1000, header), header).toBeUndefined()
    }
    expect(checkOne('integer', -40, '-4e1')).toBeUndefined()
    expect(checkOne('integer', 0, '-0.0')).toBeUndefined()
    expect(checkOne('integer', 0, '0e999999999')).toBeUndefined()
  })

  it('refusesFractionsHexSignsLeadingZerosAndNonNumbers', () => {
    const refused = [
      '1000.5',
      '999.9999999999999999',
      '0x3E8',
      '+1000',
      '01000',
      '1000 ',
      '1 000',
      'Infinity',
      'NaN',
      '',
    ]
    for (const header of refused) {
      expect(checkOne('integer', 1000, header)?.message, header).toMatch(/Header mismatch.*body value 1000/)
    }
    expect(checkOne('integer', 16, '0x10')?.message).toMatch(/Header mismatch/)
  })

  it('keepsDistinctIntegersNear2To53Distinct', () => {
    expect(checkOne('integer', 9007199254740991, '9007199254740991')).toBeUndefined()
    expect(checkOne('integer', 9007199254740991, '9007199254740990')?.message).toMatch(/Header mismatch/)
    // A double-based comparison would round this header onto the body value.
    expect(checkOne('integer', 9007199254740991, '9007199254740991.00001')?.message).toMatch(
      /Header mismatch/,
    )
    expect(checkOne('integer', -9007199254740991, '-9.007199254740991e15')).toBeUndefined()
  })

  it('refusesValuesBeyondTheSafeIntegersInTheBodyOrInTheHeader', () => {
    const body = JSON.parse('{"v": 9007199254740993}').v as number
    expect(checkOne('integer', body, '9007199254740993')?.message).toMatch(
      /Argument 'v' is outside .*±\(2\^53−1\)/,
    )
    expect(checkOne('integer', 9007199254740992, '9007199254740992')?.message).toMatch(/outside/)
    expect(checkOne('integer', -1e300, '-1e300')?.message).toMatch(/outside/)
    expect(checkOne('integer', 5, '9007199254740993')?.message).toMatch(
      /header value '9007199254740993' is outside/,
    )
  })

  it('refusesEnormousExponentsQuicklyAndWithoutThrowing', () => {
    expect(checkOne('integer', 5, `5e${'9'.repeat(30)}`)?.message).toMatch(/outside the integer range/)
    expect(checkOne('integer', 5, '5e999999999')?.message).toMatch(/outside the integer range/)
    expect(checkOne('integer', 5, `5e-${'9'.repeat(30)}`)?.message).toMatch(/Header mismatch/)
    expect(checkOne('integer', 5, '5e-99999999999999999999')?.message).toMatch(/Header mismatch/)
  })

  it('refusesNonIntegerNumbersAndNaNOrInfinityBodies', () => {
    expect(checkOne('integer', 2.5, '2.5')?.message).toMatch(/holds the non-integer number 2\.5/)
    expect(checkOne('integer', Number.NaN, 'NaN')?.message).toMatch(/non-integer/)
    expect(checkOne('integer', Number.POSITIVE_INFINITY, 'Infinity')?.message).toMatch(/non-integer/)
  })
})

describe('checkParamHeaders: booleans and other body types', () => {
  it('acceptsExactlyTrueAndFalse', () => {
    expect(checkOne('boolean', true, 'true')).toBeUndefined()
    expect(checkOne('boolean', false, 'false')).toBeUndefined()
    for (const header of ['True', 'TRUE', '1', 'yes', 'false', ' true', 'true ']) {
      expect(checkOne('boolean', true, header)?.message, header).toMatch(/Header mismatch/)
    }
    expect(checkOne('boolean', false, '0')?.message).toMatch(/Header mismatch/)
  })

  it('refusesObjectsAndArraysAtAnAnnotatedPath', () => {
    expect(checkOne('string', { a: 1 }, '[object Object]')?.message).toMatch(/holds an object/)
    expect(checkOne('string', ['a'], 'a')?.message).toMatch(/holds an array/)
  })

  it('comparesByTheJsonTypeOfTheBodyValue', () => {
    expect(checkOne('string', 42, '42.0')).toBeUndefined()
    expect(checkOne('integer', '42', '42.0')?.message).toMatch(/Header mismatch/)
    expect(checkOne('string', true, 'true')).toBeUndefined()
  })
})

describe('checkParamHeaders: messages', () => {
  it('boundEchoedValuesAndNames', () => {
    const long = 'q'.repeat(10_000)
    const message = checkOne('string', long, `${long}x`)?.message ?? ''
    expect(message.length).toBeLessThan(300)
    expect(message).toContain('…')
    const longSuffix = 'S'.repeat(1000)
    const wide = buildMirrorTable('t', {
      type: 'object',
      properties: { [`p${'n'.repeat(1000)}`]: { type: 'string', 'x-mcp-header': longSuffix } },
    })
    expect(
      checkParamHeaders(wide, { [`p${'n'.repeat(1000)}`]: 'v' }, headerView({}))?.message.length,
    ).toBeLessThan(200)
  })

  it('escapeControlCharactersOfEchoedBodyValues', () => {
    expect(checkOne('string', 'a\nb', 'ab')?.message).toContain("'a\\x0ab'")
  })
})

describe('mirrorHeaders', () => {
  it('rendersWhatAConformingClientSends', () => {
    const args = { datacenter: ' sp ', shards: -3, dryRun: true, placement: { rack: null } }
    expect(mirrorHeaders(table, args)).toEqual({
      'mcp-param-datacenter': '=?base64?IHNwIA==?=',
      'mcp-param-shards': '-3',
      'mcp-param-dry-run': 'true',
    })
    expect(checkParamHeaders(table, args, headerView(mirrorHeaders(table, args)))).toBeUndefined()
  })

  it('rendersNothingForValuesThatCannotBeMirrored', () => {
    for (const value of [null, undefined, 1.5, 2 ** 53, Number.NaN, {}, []])
      expect(mirrorHeaderValue(value)).toBeUndefined()
    expect(mirrorHeaderValue(-0)).toBe('0')
  })
})
