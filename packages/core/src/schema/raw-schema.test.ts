import { describe, expect, it } from 'vitest'
import * as ajv from './raw-schema-ajv.ts'
import * as cfworker from './raw-schema-cfworker.ts'
import { verdictMismatches } from './raw-schema-verdicts.fixture.ts'

describe('#raw-schema engines', () => {
  it.each([
    ['ajv', ajv],
    ['cfworker', cfworker],
  ])('%sGivesEveryVerdictOfTheSharedSuite', (_name, engine) => {
    expect(verdictMismatches(engine)).toEqual([])
  })
})
