/**
 * @module workspace-sources
 * Inside this repository every `@tessera/*` import resolves to the package's TypeScript sources,
 * never to its built `dist/`: tests, type checks and the examples run from sources, so a stale
 * build can never be picked up by mistake. Published packages resolve to `dist/` through their
 * `exports`; this table maps each export to the source file it is compiled from
 * (`./dist/x/y.js` ← `./src/x/y.ts`), and each subpath import (`#crypto`) to the source of its
 * Node build. Read by vitest (aliases); the exports are checked against the `paths` of the root
 * tsconfig (which tsc, tsx and editors read).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

interface Manifest {
  name: string
  exports: Record<string, { types: string; import: string }>
  /** Subpath imports (`#crypto`): one build per platform, by condition, `default` for Node's. */
  imports?: Record<string, Record<string, string>>
}

/** `@tessera/core/http` → `packages/core/src/transports/http/index.ts`, for every package export. */
export function workspaceSources(): Map<string, string> {
  const sources = new Map<string, string>()
  for (const dir of readdirSync(join(ROOT, 'packages')).sort()) {
    const base = join(ROOT, 'packages', dir)
    const manifest = JSON.parse(readFileSync(join(base, 'package.json'), 'utf8')) as Manifest
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`
      const source = target.import.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts')
      sources.set(specifier, relative(ROOT, join(base, source)))
    }
  }
  return sources
}

/**
 * `#crypto` → `packages/core/src/security/crypto-node.ts`: each package's subpath imports, by the
 * source of the build they name by `default` (Node's, which the tests run on). tsc, tsx and Bun
 * reach the same file through the tsconfigs' `paths`.
 */
export function workspaceImports(): Map<string, string> {
  const sources = new Map<string, string>()
  for (const dir of readdirSync(join(ROOT, 'packages')).sort()) {
    const base = join(ROOT, 'packages', dir)
    const manifest = JSON.parse(readFileSync(join(base, 'package.json'), 'utf8')) as Manifest
    for (const [specifier, targets] of Object.entries(manifest.imports ?? {})) {
      const source = targets.default!.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts')
      sources.set(specifier, relative(ROOT, join(base, source)))
    }
  }
  return sources
}

export const WORKSPACE_ROOT = ROOT
