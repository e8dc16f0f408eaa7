/**
 * @module node-bundles.test
 * What `scripts/bundle-node-entries.ts` makes of a package whose exports have `node` entries:
 * under plain `node`, every entry loads, exports exactly what the module tsc wrote for it
 * exports, and each module of the package is in one file only, so a process that loads two
 * entries has one copy of each class and of each module's state.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { WORKSPACE_ROOT } from '../workspace-sources.ts'

interface Manifest {
  name: string
  exports?: Record<string, Record<string, string>>
}

const bundled = readdirSync(join(WORKSPACE_ROOT, 'packages'))
  .map((dir) => join(WORKSPACE_ROOT, 'packages', dir))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest }))
  .filter(({ manifest }) =>
    Object.values(manifest.exports ?? {}).some((targets) => targets.node !== undefined),
  )

/** Runs `script` (an ES module) under plain node and returns what it printed as JSON. */
function inNode<T>(script: string): T {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: WORKSPACE_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  })
  if (child.status !== 0) throw new Error(`node failed: ${child.stderr}`)
  return JSON.parse(child.stdout) as T
}

describe('node bundles', () => {
  it('bundlesAtLeastCore', () => {
    expect(bundled.map(({ manifest }) => manifest.name)).toContain('@tessera/core')
  })

  for (const { dir, manifest } of bundled)
    describe(manifest.name, () => {
      const entries = Object.entries(manifest.exports!).filter(([, targets]) => targets.node !== undefined)
      const url = (path: string) => pathToFileURL(join(dir, path)).href

      it('exportsWhatTheCompiledModulesExport', () => {
        const script = `const out = {}
for (const [subpath, node, compiled] of ${JSON.stringify(entries.map(([s, t]) => [s, url(t.node!), url(t.import!)]))}) {
  out[subpath] = [Object.keys(await import(node)).sort(), Object.keys(await import(compiled)).sort()]
}
process.stdout.write(JSON.stringify(out))`
        const names = inNode<Record<string, [string[], string[]]>>(script)
        for (const [subpath, [node, compiled]] of Object.entries(names)) {
          expect(node, subpath).toEqual(compiled)
          expect(node.length, subpath).toBeGreaterThan(0)
        }
      })

      // The bundler heads each module's code with a comment naming its file.
      const holders = (): Map<string, Set<string>> => {
        const folder = join(dir, dirname(entries[0]![1].node!))
        const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((f) =>
          f.endsWith('.js'),
        )
        const held = new Map<string, Set<string>>()
        for (const file of files) {
          for (const [, module] of readFileSync(join(folder, file), 'utf8').matchAll(/^\/\/ (\S+\.[jt]s)$/gm))
            held.set(module!, (held.get(module!) ?? new Set()).add(file))
        }
        return held
      }

      it('holdsEachModuleInOneFileOnly', () => {
        // A module in two files would be two copies, with two of its classes and of its state.
        const held = holders()
        expect(held.size).toBeGreaterThan(0)
        const twice = [...held].filter(([, files]) => files.size > 1).map(([module]) => module)
        expect(twice).toEqual([])
      })

      it('holdsOnlyItsOwnModules', () => {
        // Another package's code copied in would run beside the application's own copy of that
        // package, with classes of its own that `instanceof` and shared state do not recognise.
        const foreign = [...holders().keys()].filter((module) => !module.startsWith('dist/'))
        expect(foreign).toEqual([])
      })
    })
})
