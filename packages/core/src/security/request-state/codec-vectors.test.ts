import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { checkStateVectors, type StateVectors } from './codec-vectors.fixture.ts'

const committed = JSON.parse(
  readFileSync(new URL('./codec-vectors.json', import.meta.url), 'utf8'),
) as StateVectors

describe('requestState test vectors', () => {
  it('opensEveryAcceptedVectorAndRefusesEveryOtherForItsReason', async () => {
    expect(committed.vectors.filter((v) => v.refused === undefined).length).toBe(4)
    expect(new Set(committed.vectors.map((v) => v.refused)).size).toBe(6)
    expect(await checkStateVectors(committed)).toEqual([])
  })

  it('namesAVectorWhoseExpectationDoesNotHold', async () => {
    const [first, ...rest] = committed.vectors
    const misdescribed = { ...committed, vectors: [{ ...first!, payload: { other: true } }, ...rest] }
    expect(await checkStateVectors(misdescribed)).toEqual([
      expect.stringMatching(/^sealed: opens: expected \{"other":true\}, got \{"m":/),
    ])
  })
})
