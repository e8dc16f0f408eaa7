/**
 * @module barrel-clean.test
 * No entry point of `@tessera/core` (`testing` included) may pull a store driver, a test tool or
 * `node:child_process` into an application. Checked two ways, because each sees
 * what the other cannot: a static walk of the import graph from the entry points (finds imports
 * on paths a run never takes, such as a lazy `import()`), and a real import in a child process
 * whose resolve hook records every module it loads (finds what a walk cannot resolve, such as a
 * `require` of a computed name).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { workspaceSources } from '../workspace-sources.ts'
import { importsOf, isRelative, packageOf, ROOT, repoPath, resolveRelative } from './import-scan.ts'

const ENTRY_POINTS = [...workspaceSources().keys()].filter((specifier) =>
  specifier.startsWith('@tessera/core'),
)
const SOURCES = workspaceSources()
const FORBIDDEN_PACKAGES = ['better-sqlite3', 'pg', 'ioredis', 'vitest', 'fast-check', 'typescript']
const FORBIDDEN_BUILTINS = ['node:child_process', 'child_process']

function isForbidden(specifier: string): boolean {
  return (
    FORBIDDEN_BUILTINS.includes(specifier) ||
    FORBIDDEN_PACKAGES.includes(packageOf(specifier)) ||
    specifier.startsWith('@tessera/store-')
  )
}

/** `@tessera/core/http` → the source file its `exports` entry is compiled from. */
function coreEntryFile(specifier: string): string {
  const source = SOURCES.get(specifier)
  if (source === undefined) throw new Error(`@tessera/core does not export '${specifier}'`)
  return join(ROOT, source)
}

/** Walks runtime imports (type-only ones are erased) from the entry points; returns the bare specifiers reached. */
function walk(entries: readonly string[]): Map<string, string> {
  const seen = new Set<string>()
  const external = new Map<string, string>()
  const queue = entries.map(coreEntryFile)
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue
    seen.add(file)
    for (const ref of importsOf(file)) {
      if (ref.typeOnly) continue
      if (isRelative(ref.specifier)) queue.push(resolveRelative(file, ref.specifier))
      else if (ref.specifier.startsWith('@tessera/core')) queue.push(coreEntryFile(ref.specifier))
      else if (!external.has(ref.specifier)) external.set(ref.specifier, `${repoPath(file)}:${ref.line}`)
    }
  }
  return external
}

// The hook runs on the loader thread; appending synchronously means every record is on disk
// before the import that caused it resolves in the main thread.
const HOOK = `import { appendFileSync } from 'node:fs'
let log
export function initialize(data) { log = data.log }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context)
  appendFileSync(log, JSON.stringify([specifier, context.parentURL ?? null, result.url]) + '\\n')
  return result
}`

const CHILD = `import { createRequire, register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(process.env.TESSERA_PROBE_HOOK), { data: { log: process.env.TESSERA_PROBE_LOG } })
for (const entry of ${JSON.stringify(ENTRY_POINTS)}) await import(entry)
process.stdout.write(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)))`

const scratch = mkdtempSync(join(tmpdir(), 'tessera-barrel-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

interface Loaded {
  /** [specifier, parent URL, resolved URL] for every ESM resolution. */
  esm: Array<[string, string | null, string]>
  /** Files in the CommonJS cache (require() calls, and CommonJS packages loaded by import). */
  cjs: string[]
}

function importInChild(): Loaded {
  const log = join(scratch, 'resolved.jsonl')
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, TESSERA_PROBE_HOOK: HOOK, TESSERA_PROBE_LOG: log },
    timeout: 30_000,
  })
  if (child.status !== 0) throw new Error(`child failed (${child.status}): ${child.stderr}`)
  const esm = existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as [string, string | null, string])
    : []
  return { esm, cjs: JSON.parse(child.stdout) as string[] }
}

const FORBIDDEN_PATH = new RegExp(`/node_modules/(${FORBIDDEN_PACKAGES.join('|')})/|/packages/store-`)
// The TypeScript loader itself (tsx, and esbuild under it) is in the child's CommonJS cache.
const LOADER_PATH = /\/node_modules\/(tsx|esbuild)\//

describe('barrel clean', () => {
  it('walksTheWholeGraphFromEveryEntryPoint', () => {
    const external = walk(ENTRY_POINTS)
    expect(external.has('zod')).toBe(true)
    expect(external.has('node:http')).toBe(true)
  })

  it('importsNoDriverNoTestToolAndNoChildProcessStatically', () => {
    const found = [...walk(ENTRY_POINTS)].filter(([specifier]) => isForbidden(specifier))
    expect(found.map(([specifier, where]) => `${where} imports '${specifier}'`)).toEqual([])
  })

  it('loadsNoDriverNoTestToolAndNoChildProcessAtRuntime', () => {
    const { esm, cjs } = importInChild()
    const fromCore = esm.filter(([, parent]) => parent === null || !parent.includes('/node_modules/'))
    expect(fromCore.length).toBeGreaterThan(20)
    const forbidden = [
      ...esm
        .filter(([specifier, , url]) => isForbidden(specifier) || FORBIDDEN_PATH.test(url))
        .map(([s, p]) => `${p} → ${s}`),
      ...cjs.filter((file) => !LOADER_PATH.test(file) && FORBIDDEN_PATH.test(file)),
    ]
    expect(forbidden.map((entry) => entry.replace(`file://${ROOT}/`, ''))).toEqual([])
  })
})
