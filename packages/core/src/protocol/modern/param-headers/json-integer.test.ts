import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseJsonInteger } from './json-integer.ts'

const integer = (value: bigint) => ({ kind: 'integer', value })

describe('parseJsonInteger', () => {
  it('readsIntegralSpellingsOfTheJsonNumberGrammarExactly', () => {
    expect(parseJsonInteger('2500')).toEqual(integer(2500n))
    expect(parseJsonInteger('2.5e3')).toEqual(integer(2500n))
    expect(parseJsonInteger('2500.000')).toEqual(integer(2500n))
    expect(parseJsonInteger('25E2')).toEqual(integer(2500n))
    expect(parseJsonInteger('250000e-2')).toEqual(integer(2500n))
    expect(parseJsonInteger('0.0025e+6')).toEqual(integer(2500n))
    expect(parseJsonInteger('-31.4e1')).toEqual(integer(-314n))
    expect(parseJsonInteger('1e0000000000000000000000002')).toEqual(integer(100n))
  })

  it('readsEveryZeroAs0WhateverItsExponent', () => {
    for (const text of ['0', '-0', '0.000', '-0.0e5', '0e888888888', '0E-77777777777777777777777']) {
      expect(parseJsonInteger(text)).toEqual(integer(0n))
    }
  })

  it('keepsIntegersNear2To53DistinctWithoutDoubles', () => {
    expect(parseJsonInteger('9007199254740991')).toEqual(integer(9007199254740991n))
    expect(parseJsonInteger('9007199254740990')).toEqual(integer(9007199254740990n))
    expect(parseJsonInteger('-9007199254740991')).toEqual(integer(-9007199254740991n))
    expect(parseJsonInteger('9.007199254740991e15')).toEqual(integer(9007199254740991n))
    // A double would round both of these onto 9007199254740991.
    expect(parseJsonInteger('9007199254740991.0000001')).toEqual({ kind: 'fraction' })
    expect(parseJsonInteger('900719925474099.05e1')).toEqual({ kind: 'fraction' })
  })

  it('classifiesFractions', () => {
    for (const text of ['2.5', '-0.5', '25e-1', '1e-1', '3.0001e3']) {
      expect(parseJsonInteger(text)).toEqual({ kind: 'fraction' })
    }
  })

  it('refusesValuesBeyondTheSafeIntegers', () => {
    for (const text of [
      '9007199254740992',
      '9007199254740993',
      '-9007199254740992',
      '1e16',
      '9.1e15',
      '12345678901234567890',
    ]) {
      expect(parseJsonInteger(text)).toEqual({ kind: 'out-of-range' })
    }
  })

  it('handlesEnormousExponentsWithoutBuildingThem', () => {
    expect(parseJsonInteger('7e999999999')).toEqual({ kind: 'out-of-range' })
    expect(parseJsonInteger(`4e${'9'.repeat(40)}`)).toEqual({ kind: 'out-of-range' })
    expect(parseJsonInteger('3e-999999999')).toEqual({ kind: 'fraction' })
    expect(parseJsonInteger(`3e-${'9'.repeat(40)}`)).toEqual({ kind: 'fraction' })
    expect(parseJsonInteger('-6e-9223372036854775808')).toEqual({ kind: 'fraction' })
  })

  it('readsLongRunsOfZerosInALinearScanWithoutRegexBacktracking', () => {
    const zeros = '0'.repeat(50_000)
    expect(parseJsonInteger(`0.${zeros}7e50001`)).toEqual(integer(7n))
    expect(parseJsonInteger(`0.${zeros}1${zeros}1e3`)).toEqual({ kind: 'fraction' })
    expect(parseJsonInteger(`6${zeros}`)).toEqual({ kind: 'out-of-range' })
    expect(parseJsonInteger(`6.${zeros}`)).toEqual(integer(6n))
  })

  it('refusesEverythingOutsideTheJsonNumberGrammar', () => {
    const invalid = [
      '',
      '0x1F',
      '0b101',
      '0o17',
      '+12',
      '012',
      '00',
      '-',
      '1.',
      '.5',
      '1e',
      '1e+',
      '1_000',
      '1,000',
    ]
    invalid.push(' 12', '12 ', '1 2', 'Infinity', '-Infinity', 'NaN', '12n', '١٢', '1E3.5', '--1', '1e٣')
    for (const text of invalid) expect(parseJsonInteger(text), text).toEqual({ kind: 'invalid' })
  })

  it('agreesWithBigIntOnEverySafeIntegerWrittenInDecimal', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(parseJsonInteger(String(n))).toEqual(integer(BigInt(n)))
      }),
    )
  })

  it('agreesWithExactArithmeticOnScientificSpellingsOfSafeIntegers', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.integer({ min: 0, max: 20 }), (n, shift) => {
        // n written as n·10^-shift · 10^shift, with a fractional mantissa.
        const digits = Math.abs(n)
          .toString()
          .padStart(shift + 1, '0')
        const mantissa = `${digits.slice(0, digits.length - shift)}${shift > 0 ? `.${digits.slice(-shift)}` : ''}`
        const text = `${n < 0 ? '-' : ''}${mantissa.replace(/^0+(?=\d)/, '')}e${shift}`
        expect(parseJsonInteger(text)).toEqual(integer(BigInt(n)))
      }),
    )
  })
})
