/**
 * @module introspection-cache.test
 * The answer cache on its own: keys are digests, entries expire by the given clock, and the
 * oldest entry goes when the cache is full.
 */
import { describe, expect, it } from 'vitest'
import { expiringCache, tokenKey } from './introspection-cache.ts'

describe('introspection cache', () => {
  it('keysATokenByItsSha256', async () => {
    expect(await tokenKey('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0')
    expect(await tokenKey('secret-token')).not.toContain('secret-token')
  })

  it('dropsAnEntryOnceItsExpiryIsReached', () => {
    let now = 1_000
    const cache = expiringCache<string>(10, () => now)
    cache.set('a', 'A', 2_000)
    cache.set('past', 'P', 1_000)
    expect(cache.get('a')).toBe('A')
    expect(cache.get('past')).toBeUndefined()
    now = 2_000
    expect(cache.get('a')).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  it('evictsTheOldestEntryWhenFull', () => {
    const cache = expiringCache<string>(2, () => 0)
    cache.set('a', 'A', 10)
    cache.set('b', 'B', 10)
    cache.set('a', 'A2', 10)
    cache.set('c', 'C', 10)
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['A2', undefined, 'C'])
    expect(cache.size).toBe(2)
  })
})
