/**
 * @module workspace-sources.test
 * Inside the repository every package import reaches sources: the root tsconfig's `paths` (read
 * by tsc, tsx and editors) name exactly the source file of every package export, and every
 * export's `types` and `import` are the `dist/` files that source compiles to; an export with a
 * web build names one existing build under each of the `workerd`, `worker` and `browser` conditions.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { workspaceImports, workspaceSources } from '../workspace-sources.ts'
import { ROOT } from './import-scan.ts'

const tsconfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as {
  compilerOptions: { paths: Record<string, string[]> }
}

/** The conditions a web build of an entry point is published under (Workers, browsers). */
const WEB_CONDITIONS = ['workerd', 'worker', 'browser']
/** Subpath imports that only Node's builds import. */
const NODE_ONLY_IMPORTS = ['#on-demand']

describe('workspace sources', () => {
  it('mapsEveryPackageExportAndSubpathImportToItsSourceInTheRootTsconfig', () => {
    const expected = Object.fromEntries(
      [...workspaceSources(), ...workspaceImports()].map(([specifier, source]) => [
        specifier,
        [`./${source}`],
      ]),
    )
    expect(tsconfig.compilerOptions.paths).toEqual(expected)
  })

  it('mapsEverySubpathImportToItsSourceWhereverATsconfigHasPaths', () => {
    // tsconfig.base serves the package builds; a tsconfig with paths of its own replaces them.
    const expected = Object.fromEntries(
      [...workspaceImports()].map(([specifier, source]) => [specifier, [`./${source}`]]),
    )
    const base = JSON.parse(readFileSync(join(ROOT, 'tsconfig.base.json'), 'utf8')) as typeof tsconfig
    expect(base.compilerOptions.paths).toEqual(expected)
    const ui = JSON.parse(
      readFileSync(join(ROOT, 'packages/cli/ui/tsconfig.json'), 'utf8'),
    ) as typeof tsconfig
    for (const [specifier, [source]] of Object.entries(expected)) {
      expect(ui.compilerOptions.paths[specifier], specifier).toEqual([
        relative(join(ROOT, 'packages/cli/ui'), join(ROOT, source!)),
      ])
    }
  })

  it('pointsEveryExportAtTheDistFilesOfAnExistingSource', () => {
    for (const dir of readdirSync(join(ROOT, 'packages'))) {
      const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8')) as {
        exports: Record<string, Record<string, string>>
      }
      for (const [subpath, target] of Object.entries(manifest.exports)) {
        const web = WEB_CONDITIONS.filter((condition) => condition in target)
        // Either no web build, or one file under every web condition, between types and import;
        // then, optionally, Node's bundle of the import (`scripts/bundle-node-entries.ts`).
        expect(web.length === 0 || web.length === WEB_CONDITIONS.length, `${dir} ${subpath}`).toBe(true)
        const node = 'node' in target ? ['node'] : []
        expect(Object.keys(target), `${dir} ${subpath}`).toEqual(['types', ...web, ...node, 'import'])
        if (target.node !== undefined)
          expect(target.node, `${dir} ${subpath}`).toMatch(/^\.\/dist\/node\/[\w-]+\.js$/)
        expect(target.types, `${dir} ${subpath}`).toBe(target.import!.replace(/\.js$/, '.d.ts'))
        expect(
          new Set(web.map((condition) => target[condition])).size,
          `${dir} ${subpath}`,
        ).toBeLessThanOrEqual(1)
        for (const file of [target.import!, ...web.map((condition) => target[condition]!)]) {
          const source = file.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')
          expect(existsSync(join(ROOT, 'packages', dir, source)), `${dir} ${subpath} → ${source}`).toBe(true)
        }
      }
    }
  })

  it('buildsEverySubpathImportForTheWebAndForNodeFromExistingSources', () => {
    for (const dir of readdirSync(join(ROOT, 'packages'))) {
      const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8')) as {
        imports?: Record<string, Record<string, string>>
      }
      for (const [specifier, targets] of Object.entries(manifest.imports ?? {})) {
        // Inside the repository (the tsconfigs' paths, the vitest aliases) it is Node's build, from sources.
        expect(workspaceImports().get(specifier)).toBe(
          join('packages', dir, targets.default!.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')),
        )
        // A module only Node's builds import (`#on-demand`, which core's Node bundles keep apart)
        // has no web build: a Worker run without Node compatibility would not load what it imports.
        if (NODE_ONLY_IMPORTS.includes(specifier)) {
          expect(Object.keys(targets), `${dir} ${specifier}`).toEqual(['default'])
          const source = targets.default!.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')
          expect(existsSync(join(ROOT, 'packages', dir, source)), `${dir} ${specifier} → ${source}`).toBe(
            true,
          )
          continue
        }
        // Only built files: a published manifest names nothing a plain node or tsc cannot load.
        expect(Object.keys(targets), `${dir} ${specifier}`).toEqual([...WEB_CONDITIONS, 'default'])
        expect(
          new Set(WEB_CONDITIONS.map((condition) => targets[condition])).size,
          `${dir} ${specifier}`,
        ).toBe(1)
        expect(targets.workerd, `${dir} ${specifier}`).not.toBe(targets.default)
        for (const file of WEB_CONDITIONS.map((c) => targets[c]!).concat(targets.default!)) {
          const source = file.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')
          expect(existsSync(join(ROOT, 'packages', dir, source)), `${dir} ${specifier} → ${source}`).toBe(
            true,
          )
        }
      }
    }
  })
})
