/**
 * @module load-catalogue.test
 * A malformed catalogue stops the start with file, line and column; an inconsistent one names the
 * field. Checked on the loader and on the real process, which must exit non-zero, not serve.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CatalogueError, loadCatalogue, parseCatalogue } from '../src/catalogue/load-catalogue.ts'
import { SHIPPED_CATALOGUE } from '../src/cli.ts'
import { OpsProcess } from './spawn-ops.ts'

const dir = mkdtempSync(join(tmpdir(), 'ops-catalogue-load-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const MALFORMED = [
  '{',
  '  "name": "Broken catalogue",',
  '  "services": [',
  '    { "id": "checkout", }',
  '  ]',
  '}',
  '',
].join('\n')

function thrown(fn: () => unknown): CatalogueError {
  try {
    fn()
  } catch (error) {
    if (error instanceof CatalogueError) return error
    throw error
  }
  throw new Error('expected a CatalogueError')
}

describe('loading the catalogue', () => {
  it('loadsTheShippedCatalogueADozenServicesEachWithHistoryAndRunbooks', () => {
    const catalogue = loadCatalogue(SHIPPED_CATALOGUE)
    expect(catalogue.ids()).toHaveLength(12)
    for (const s of catalogue.services()) {
      expect(s.deployments.length).toBeGreaterThanOrEqual(3)
      expect(s.runbooks.length).toBeGreaterThanOrEqual(1)
      expect(s.deployments.at(-1)?.version).toBe(s.currentVersion)
    }
  })

  it('aMalformedCatalogueNamesFileLineAndColumn', async () => {
    const file = join(dir, 'ops.json')
    writeFileSync(file, MALFORMED)
    const error = thrown(() => loadCatalogue(file))
    // The stray comma on line 4: the parser expected a property name at column 25.
    expect({ file: error.file, line: error.line, column: error.column }).toEqual({
      file,
      line: 4,
      column: 25,
    })
    expect(error.message).toMatch(new RegExp(`^${file.replaceAll('.', '\\.')}:4:25: malformed JSON`))

    const process = new OpsProcess(['--catalogue', file, '--data', join(dir, 'data')], { PORT: '0' })
    expect(await process.exited).toBe(1)
    const fatal = process.logs.find((l) => l.event === 'catalogue_invalid')
    expect(fatal?.msg).toContain(`${file}:4:25: malformed JSON`)
    expect(process.logs.some((l) => l.event === 'listening')).toBe(false)
  })

  it('reportsTheLineAndColumnOfATruncatedFileAtItsEnd', () => {
    const error = thrown(() => parseCatalogue('{\n  "name": "x",\n  "services": [\n', 'cut.json'))
    expect([error.line, error.column]).toEqual([4, 1])
  })

  it('namesTheFieldOfACatalogueThatParsesButDoesNotHoldTogether', () => {
    const file = JSON.parse(
      JSON.stringify({
        name: 'x',
        services: [
          {
            id: 'api',
            name: 'API',
            description: 'd',
            owner: { team: 't', contact: '#t' },
            tier: 2,
            currentVersion: '2.0.0',
            health: { status: 'healthy', checkedAt: '2026-11-30T00:00:00Z' },
            deployments: [
              { kind: 'deploy', version: '1.0.0', at: '2026-10-01T00:00:00Z', by: 'ci' },
              { kind: 'rollback', version: '0.9.0', at: '2026-10-02T00:00:00Z', by: 'ci' },
            ],
            runbooks: [{ title: 'r', markdown: '# r' }],
          },
        ],
      }),
    )
    const error = thrown(() => parseCatalogue(JSON.stringify(file), 'odd.json'))
    expect(error.message).toContain(
      'services[0].deployments[1].version: rollback to 0.9.0, which was never deployed before',
    )
    expect(error.message).toContain('services[0].currentVersion: is 2.0.0 but the last deployment is 0.9.0')
  })

  it('namesAFileItCannotRead', () => {
    const error = thrown(() => loadCatalogue(join(dir, 'missing.json')))
    expect(error.message).toContain('missing.json: cannot read the catalogue')
  })
})
