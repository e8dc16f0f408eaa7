/**
 * @module bundle-node-entries
 * Part of `npm run build`, after tsc: every package export with a `node` condition gets the
 * module tsc wrote for its `import` condition bundled, with everything it reaches inside the
 * package, into the file `node` names. Node loads ES modules one file at a time, and core is
 * about ninety of them; one file per entry point halves the time `@tessera/core` takes to load.
 *
 * All of a package's `node` entries are bundled in one pass, so code two entries share lands in
 * one chunk they both import: a process that loads two entries still has one copy of each
 * module, of its classes and of its state. Everything outside the package (zod, pino, other
 * `@tessera/*` packages) stays an import, so the application's copy is the one used. Subpath
 * imports (`#crypto`) resolve to their Node builds, as they would at run time, except
 * `#on-demand`, which stays an import. Source maps chain through tsc's, so a stack trace under
 * `--enable-source-maps` names the TypeScript source, which every package ships.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
/** Where a package's bundles go; every `node` entry names a file in it. */
const OUT_DIR = 'dist/node'

interface Manifest {
  name: string
  exports?: Record<string, Record<string, string>>
}

/** A package's `node` entries: where each is bundled from and to, relative to the package. */
function nodeEntries(manifest: Manifest): Array<{ from: string; to: string }> {
  const entries: Array<{ from: string; to: string }> = []
  for (const [subpath, targets] of Object.entries(manifest.exports ?? {})) {
    if (targets.node === undefined) continue
    if (targets.import === undefined)
      throw new Error(`${manifest.name} export ${subpath}: a node entry needs an import entry`)
    entries.push({ from: targets.import, to: targets.node })
  }
  return entries
}

async function bundlePackage(dir: string, manifest: Manifest): Promise<number> {
  const entries = nodeEntries(manifest)
  if (entries.length === 0) return 0
  const outdir = join(dir, OUT_DIR)
  for (const entry of entries) {
    // The folder is emptied before each build: it holds bundles and nothing else.
    if (!entry.to.startsWith(`./${OUT_DIR}/`))
      throw new Error(`${manifest.name}: the node entry ${entry.to} is not under ./${OUT_DIR}/`)
    if (!existsSync(join(dir, entry.from)))
      throw new Error(`${manifest.name}: ${entry.from} is missing; run tsc -b first`)
  }
  // Chunks are named by their content: a rebuild would leave the previous ones beside the new.
  rmSync(outdir, { recursive: true, force: true })
  await build({
    absWorkingDir: dir,
    entryPoints: entries.map((entry) => ({
      in: entry.from,
      out: relative(outdir, join(dir, entry.to)).replace(/\.js$/, ''),
    })),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // Kept a module of its own, imported by name (`packages/core/src/on-demand.ts`): bundled here,
    // its `require('pino')` would become esbuild's own `__require("pino")`, which an application's
    // bundler no longer follows.
    external: ['#on-demand'],
    // Not the workspace's tsconfig: its `paths` point `@tessera/*` at their sources, which would
    // pull another package's code into this one's bundle instead of importing it.
    tsconfigRaw: {},
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
  })
  return entries.length
}

let bundled = 0
for (const name of readdirSync(join(ROOT, 'packages')).sort()) {
  const dir = join(ROOT, 'packages', name)
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest
  bundled += await bundlePackage(dir, manifest)
}
if (bundled === 0) throw new Error('no package export has a node entry to bundle')
