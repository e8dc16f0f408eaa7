/**
 * @module workspace-sources.test
 * Inside the repository every package import reaches sources: the root tsconfig's `paths` (read
 * by tsc, tsx and editors) name exactly the source file of every package export, and every
 * export's `types` and `import` are the `dist/` files that source compiles to.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { workspaceSources } from '../workspace-sources.ts'
import { ROOT } from './import-scan.ts'

const tsconfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as {
  compilerOptions: { paths: Record<string, string[]> }
}

describe('workspace sources', () => {
  it('mapsEveryPackageExportToItsSourceInTheRootTsconfig', () => {
    const expected = Object.fromEntries(
      [...workspaceSources()].map(([specifier, source]) => [specifier, [`./${source}`]]),
    )
    expect(tsconfig.compilerOptions.paths).toEqual(expected)
  })

  it('pointsEveryExportAtTheDistFilesOfAnExistingSource', () => {
    for (const dir of readdirSync(join(ROOT, 'packages'))) {
      const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8')) as {
        exports: Record<string, { types: string; import: string }>
      }
      for (const [subpath, target] of Object.entries(manifest.exports)) {
        expect(Object.keys(target), `${dir} ${subpath}`).toEqual(['types', 'import'])
        expect(target.types, `${dir} ${subpath}`).toBe(target.import.replace(/\.js$/, '.d.ts'))
        const source = target.import.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')
        expect(existsSync(join(ROOT, 'packages', dir, source)), `${dir} ${subpath} → ${source}`).toBe(true)
      }
    }
  })
})
