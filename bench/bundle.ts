/**
 * `npm run bench:bundle`: what a Worker ships. The hello server, Tessera's and the official SDK's
 * beside it, bundled the way wrangler bundles (esbuild, the `workerd`, `worker` and `browser`
 * conditions, ES modules, minified) from the built packages, never from the sources. Prints each
 * bundle's size, minified and gzipped, and every Node built-in it still imports, with the modules
 * that import it: a Worker without Node compatibility loads none of them.
 *
 *   npm run bench:bundle
 */

import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build, type Metafile } from 'esbuild'
import { workerBuildOptions } from '../test/runtimes/workerd.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const WORKERS = {
  tessera: 'bench/bundle/tessera-worker.ts',
  official: 'bench/bundle/official-worker.ts',
} as const

if (!existsSync(join(ROOT, 'packages/core/dist/index.js'))) {
  console.error('bench:bundle: packages/core/dist is missing: run `npm run build` first')
  process.exit(2)
}

interface Bundled {
  minified: number
  gzipped: number
  /** Each Node built-in the bundle imports, with the packages or files importing it. */
  builtins: Map<string, Set<string>>
}

async function bundle(entry: string): Promise<Bundled> {
  const result = await build({ ...workerBuildOptions(entry), write: false, minify: true, metafile: true })
  const code = result.outputFiles[0]!.contents
  return {
    minified: code.byteLength,
    gzipped: gzipSync(code, { level: 9 }).byteLength,
    builtins: builtinsOf(result.metafile),
  }
}

function builtinsOf(metafile: Metafile): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>()
  for (const [file, input] of Object.entries(metafile.inputs)) {
    for (const imported of input.imports) {
      if (!imported.external) continue
      // esbuild's name for a require whose argument it cannot read.
      const name =
        imported.path === '<runtime>' ? '(a computed require)' : imported.path.replace(/^node:/, '')
      const importers = found.get(name) ?? new Set<string>()
      importers.add(ownerOf(file))
      found.set(name, importers)
    }
  }
  return new Map([...found].sort(([a], [b]) => a.localeCompare(b)))
}

/** A file as its package (`pino`, `@modelcontextprotocol/sdk`) or, in a Tessera package, its path. */
function ownerOf(file: string): string {
  // The workspace's packages are linked: esbuild names their files by their place in packages/.
  const workspace = /^packages\/([^/]+)\/dist\/(.*)$/.exec(file)
  if (workspace) return `@tessera/${workspace[1]}/${workspace[2]}`
  const inModules = file.split('node_modules/').pop()!
  if (inModules === file) return file
  const parts = inModules.split('/')
  const name = parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!
  return name.startsWith('@tessera/') ? `${name}/${parts.slice(2).join('/')}` : name
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`

for (const [name, entry] of Object.entries(WORKERS)) {
  const bundled = await bundle(entry)
  console.log(`${name}: ${kib(bundled.minified)} minified, ${kib(bundled.gzipped)} gzipped`)
  if (bundled.builtins.size === 0) console.log('  imports no Node built-in')
  for (const [builtin, importers] of bundled.builtins) {
    const name = builtin.startsWith('(') ? builtin : `node:${builtin}`
    console.log(`  ${name.padEnd(26)} ${[...importers].sort().join(', ')}`)
  }
}
