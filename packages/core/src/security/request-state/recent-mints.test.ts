import { describe, expect, it } from 'vitest'
import type { StateKeys } from '../crypto.ts'
import { type MintedState, RecentMints, sameText } from './recent-mints.ts'

const keys: StateKeys = { platform: 'node' }
const otherKeys: StateKeys = { platform: 'node' }
const minted = (
  n: number,
  token = `tss1.k.${'x'.repeat(40)}${String(n).padStart(22, '0')}`,
): MintedState => ({
  keys,
  token,
  claims: `{"n":${n}}`,
  binding: 'binding',
})

describe('RecentMints', () => {
  it('recallsOnlyTheVeryTokenItWasGivenUnderTheSameKeys', () => {
    const recent = new RecentMints(8, 1024)
    const state = minted(1)
    recent.remember(state)
    const other = `${state.token.slice(0, 9)}y${state.token.slice(10)}`
    expect(recent.recall(keys, other)).toBeUndefined()
    expect(recent.recall(keys, `${state.token}x`)).toBeUndefined()
    expect(recent.recall(otherKeys, state.token)).toBeUndefined()
    expect(recent.recall(keys, state.token)).toBe(state)
  })

  it('forgetsAStateOnceRecalled', () => {
    const recent = new RecentMints(8, 1024)
    recent.remember(minted(1))
    expect(recent.recall(keys, minted(1).token)).toBeDefined()
    expect(recent.recall(keys, minted(1).token)).toBeUndefined()
  })

  it('keepsAtMostMaxStatesOfAtMostMaxTokenLength', () => {
    const recent = new RecentMints(3, 80)
    for (let n = 1; n <= 4; n++) recent.remember(minted(n))
    recent.remember(minted(5, `${'z'.repeat(81)}`))
    expect(recent.recall(keys, minted(1).token)).toBeUndefined()
    expect(recent.recall(keys, 'z'.repeat(81))).toBeUndefined()
    for (let n = 2; n <= 4; n++) expect(recent.recall(keys, minted(n).token)?.claims).toBe(`{"n":${n}}`)
  })
})

describe('sameText', () => {
  it('tellsEqualStringsFromAnyOther', () => {
    expect(sameText('abc', 'abc')).toBe(true)
    expect(sameText('', '')).toBe(true)
    for (const other of ['abd', 'xbc', 'ab', 'abcd', '']) expect(sameText('abc', other)).toBe(false)
    expect(sameText('\u{1F600}', '\u{1F601}')).toBe(false)
  })
})
