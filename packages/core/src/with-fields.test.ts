/**
 * @module with-fields.test
 * `withFields` copies as a spread copies, and the objects it makes share one hidden class per
 * shape once V8 has optimized it.
 */
import { setFlagsFromString } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { withFields } from './with-fields.ts'

setFlagsFromString('--allow-natives-syntax')
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean
const optimizeNext = new Function(
  'f',
  '%PrepareFunctionForOptimization(f); f({ a: 1 }, { b: 2 }); %OptimizeFunctionOnNextCall(f)',
) as (f: typeof withFields) => void

describe('withFields', () => {
  it('copiesAsASpreadDoes', () => {
    const tag = Symbol('tag')
    const base = { a: 1, b: 2, [tag]: 'kept' }
    expect(withFields(base, { b: 3, c: 4 })).toStrictEqual({ ...base, b: 3, c: 4 })
    expect(Object.keys(withFields(base, { b: 3, c: 4 }))).toEqual(['a', 'b', 'c'])
    expect(withFields(undefined, { c: 4 })).toStrictEqual({ c: 4 })
    expect(base).toStrictEqual({ a: 1, b: 2, [tag]: 'kept' })
  })

  it('keepsAnOwnProtoKeyAsAPlainProperty', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as object
    const copy = withFields(parsed, { b: 2 })
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(Object.hasOwn(copy, '__proto__')).toBe(true)
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined()
  })

  it('givesObjectsOfOneShapeOneHiddenClassWhenOptimized', () => {
    optimizeNext(withFields)
    const first = withFields({ contents: [1] }, { ttlMs: 1 })
    const second = withFields({ contents: [2] }, { ttlMs: 2 })
    expect(haveSameMap(first, second)).toBe(true)
  })
})
