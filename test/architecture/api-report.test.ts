/**
 * @module api-report.test
 * The committed API report (`api/*.api.md`) is the surface as it is: a change of any public name
 * or type fails here until the report is regenerated (`npm run api:update`) and committed with it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { describe, expect, it } from 'vitest'
import { API_DIR, allReports } from './api-report.ts'

const reports = allReports()

describe('api report', () => {
  it('coversEveryPackage', () => {
    expect([...reports.keys()].map((file) => basename(file)).sort()).toEqual([
      'apps.api.md',
      'auth.api.md',
      'cli.api.md',
      'cloudflare.api.md',
      'core.api.md',
      'create-tessera.api.md',
      'skills.api.md',
      'store-postgres.api.md',
      'store-redis.api.md',
      'store-sqlite.api.md',
    ])
  })

  it.each([...reports.keys()].map((file) => basename(file)))('%sMatchesTheSurface', (name) => {
    const file = [...reports.keys()].find((f) => basename(f) === name)!
    expect(existsSync(file), `${name} is missing: run npm run api:update`).toBe(true)
    expect(readFileSync(file, 'utf8'), `the public API changed: run npm run api:update`).toBe(
      reports.get(file),
    )
  })

  it('keepsNoReportOfAPackageThatIsGone', () => {
    const known = new Set([...reports.keys()].map((file) => basename(file)))
    expect(readdirSync(API_DIR).filter((name) => !known.has(name))).toEqual([])
  })
})
