/**
 * @module release-history.test
 * Which versions count as "earlier": releases before the current version was first released,
 * newest first, so a rollback never offers a roll forward.
 */
import { describe, expect, it } from 'vitest'
import type { Deployment, DeploymentKind } from '../src/deployments/deployment-log.ts'
import { earlierVersions } from '../src/deployments/release-history.ts'

function history(...entries: Array<[DeploymentKind, string]>): Deployment[] {
  return entries.map(([kind, version], i) => ({
    id: `d${i}`,
    seq: i + 1,
    service: 's',
    kind,
    version,
    at: '',
    by: 'ci',
  }))
}

describe('earlierVersions', () => {
  it('offersTheReleasesBeforeTheCurrentOneNewestFirst', () => {
    expect(earlierVersions(history(['deploy', '1.0'], ['deploy', '1.1'], ['deploy', '1.2']))).toEqual([
      '1.1',
      '1.0',
    ])
  })

  it('afterARollbackNeverOffersTheVersionRolledBackFrom', () => {
    const h = history(['deploy', '1.0'], ['deploy', '1.1'], ['deploy', '1.2'], ['rollback', '1.1'])
    expect(earlierVersions(h)).toEqual(['1.0'])
  })

  it('countsAReleaseOnceHoweverOftenItRan', () => {
    const h = history(
      ['deploy', '1.0'],
      ['deploy', '1.1'],
      ['rollback', '1.0'],
      ['deploy', '1.1'],
      ['deploy', '1.2'],
    )
    expect(earlierVersions(h)).toEqual(['1.1', '1.0'])
  })

  it('offersNothingForAFirstReleaseOrAnEmptyHistory', () => {
    expect(earlierVersions(history(['deploy', '1.0']))).toEqual([])
    expect(earlierVersions([])).toEqual([])
  })
})
