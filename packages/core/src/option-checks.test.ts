/**
 * @module option-checks.test
 * The unknown-option check every factory runs: what it refuses, the words it refuses with, and
 * which known name it suggests for a misspelled one (and when it suggests none).
 */
import { describe, expect, it } from 'vitest'
import { assertKnownOptions, closestName, editDistance } from './option-checks.ts'

const HTTP = ['path', 'allowedHosts', 'allowedOrigins', 'maxBodyBytes', 'maxHeaderBytes', 'health']
const known = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, true as const]))

describe('closestName', () => {
  it('suggestsTheNamesUsersReportedMisspelling', () => {
    expect(closestName('allowHosts', HTTP)).toBe('allowedHosts')
    expect(closestName('maxBodySize', HTTP)).toBe('maxBodyBytes')
    expect(closestName('scopes', ['resource', 'scopesSupported', 'scopeHierarchy', 'required'])).toBe(
      'scopesSupported',
    )
  })

  it('findsTheSameNameInAnotherCase', () => {
    expect(closestName('MAXBODYBYTES', HTTP)).toBe('maxBodyBytes')
    expect(closestName('allowedhosts', HTTP)).toBe('allowedHosts')
  })

  it('countsSwappedNeighboursAsOneEdit', () => {
    expect(editDistance('helath', 'health')).toBe(1)
    expect(editDistance('ptah', 'path')).toBe(1)
    expect(closestName('ptah', HTTP)).toBe('path')
  })

  it('prefersTheNearestOfSeveralCloseNames', () => {
    expect(closestName('maxHeaderByte', HTTP)).toBe('maxHeaderBytes')
    expect(closestName('allowedOrigin', HTTP)).toBe('allowedOrigins')
  })

  it('suggestsNothingFarFromEveryName', () => {
    expect(closestName('colour', HTTP)).toBeUndefined()
    expect(closestName('port', HTTP)).toBeUndefined()
    // Three letters in common are not enough to guess from a prefix.
    expect(closestName('max', HTTP)).toBeUndefined()
  })

  it('measuresEditsExactly', () => {
    expect(editDistance('', 'abc')).toBe(3)
    expect(editDistance('abc', '')).toBe(3)
    expect(editDistance('kitten', 'sitting')).toBe(3)
    expect(editDistance('same', 'same')).toBe(0)
  })
})

describe('assertKnownOptions', () => {
  it('refusesAnUnknownOptionByNameWithTheClosestKnownOne', () => {
    expect(() => assertKnownOptions({ maxBodySize: 1 }, known(HTTP), 'listen')).toThrow(
      new TypeError(`listen: unknown option 'maxBodySize' (did you mean 'maxBodyBytes'?).`),
    )
    expect(() => assertKnownOptions({ colour: 'blue' }, known(HTTP), 'listen')).toThrow(
      new TypeError(`listen: unknown option 'colour'.`),
    )
  })

  it('refusesAKeyPresentWithAnUndefinedValue', () => {
    expect(() => assertKnownOptions({ allowHosts: undefined }, known(HTTP), 'listen')).toThrow(
      `listen: unknown option 'allowHosts' (did you mean 'allowedHosts'?).`,
    )
  })

  it('namesANestedOptionByItsDottedPath', () => {
    expect(() => assertKnownOptions({ pathh: '/x' }, known(['path']), 'listen', { path: 'health' })).toThrow(
      `listen: unknown option 'health.pathh' (did you mean 'health.path'?).`,
    )
  })

  it('refusesOptionsThatAreNotAnObject', () => {
    for (const value of [null, 'x', 3, ['path']]) {
      expect(() => assertKnownOptions(value, known(HTTP), 'listen')).toThrow(
        new TypeError('listen: options must be an object.'),
      )
    }
    expect(() => assertKnownOptions(null, known(['path']), 'listen', { path: 'health' })).toThrow(
      new TypeError('listen: health must be an object.'),
    )
  })

  it('letsAbsentOptionsPassUnlessTheyAreRequired', () => {
    expect(() => assertKnownOptions(undefined, known(HTTP), 'listen')).not.toThrow()
    expect(() => assertKnownOptions(undefined, known(HTTP), 'jwtVerifier', { required: true })).toThrow(
      new TypeError('jwtVerifier: options must be an object.'),
    )
  })

  it('acceptsEveryKnownOptionAndNoInheritedName', () => {
    expect(() => assertKnownOptions({ path: '/mcp', health: true }, known(HTTP), 'listen')).not.toThrow()
    // A name every object inherits is no option.
    expect(() => assertKnownOptions({ toString: 1 }, known(HTTP), 'listen')).toThrow(
      "unknown option 'toString'",
    )
  })
})
