/**
 * @module reseeding-log.test
 * A deployment log whose store lost its data heals on the next read: a known service found with
 * no history is seeded from the catalogue again, once, with a warning that says what was lost;
 * an unknown service stays empty and nothing is written for it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { capturingLogger } from '../../../test/helpers/mcp-http.ts'
import { loadCatalogue } from '../src/catalogue/load-catalogue.ts'
import { SHIPPED_CATALOGUE } from '../src/cli.ts'
import { reseedingLog } from '../src/deployments/reseeding-log.ts'
import { sqliteDeploymentLog } from '../src/deployments/sqlite-deployment-log.ts'

const dir = mkdtempSync(join(tmpdir(), 'ops-reseed-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('reseedingLog', () => {
  it('seedsAKnownServiceFoundEmptyOnceAndSaysSo', async () => {
    const catalogue = loadCatalogue(SHIPPED_CATALOGUE)
    const logger = capturingLogger()
    // A fresh file: the state of a store that lost everything since the start.
    const log = reseedingLog(sqliteDeploymentLog({ path: join(dir, 'empty.sqlite') }), catalogue, logger)
    try {
      const history = await log.history('checkout')
      expect(history.map((d) => d.version)).toEqual(
        catalogue.get('checkout')!.deployments.map((d) => d.version),
      )
      expect(await log.history('checkout')).toEqual(history)
      const warnings = logger.entries.filter((e) => e.obj.event === 'deployment_log_reseeded')
      expect(warnings).toEqual([
        expect.objectContaining({
          level: 'warn',
          obj: { event: 'deployment_log_reseeded', service: 'checkout' },
        }),
      ])
      expect(await log.history('no-such-service')).toEqual([])
    } finally {
      await log.close()
    }
  })
})
