/**
 * How a peer's bench server loads its framework: from the folder `bench/run.ts` installed it into
 * (`BENCH_PEER_DIR`), never from the repository's own node_modules, so each peer runs with the
 * versions it pins and its own zod.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

interface ZodNumberLike {
  int(): ZodNumberLike
  min(n: number): ZodNumberLike
  max(n: number): ZodNumberLike
  optional(): unknown
}
/** What a peer's server uses of its own zod (the peer's copy, so not the repository's types). */
export interface ZodLike {
  object(shape: Record<string, unknown>): unknown
  string(): { min(n: number): unknown }
  number(): ZodNumberLike
}

const NODE_CONDITIONS = new Set(['node', 'import', 'default'])
const peerDir = process.env.BENCH_PEER_DIR
if (!peerDir) throw new Error('BENCH_PEER_DIR is not set (run through `npm run bench -- --peer`)')

/** import() a package as installed under BENCH_PEER_DIR, through its ESM `exports` entry (`subpath` of it). */
export async function peerImport<T>(name: string, subpath = '.'): Promise<T> {
  const dir = join(peerDir!, 'node_modules', name)
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    exports?: unknown
    module?: string
    main?: string
  }
  const exports = pkg.exports as Record<string, unknown> | string | undefined
  const root = typeof exports === 'object' && subpath in exports ? exports[subpath] : exports
  // As Node picks: the first key, in the package's order, that is one of Node's conditions.
  const pick = (e: unknown): string | undefined => {
    if (typeof e === 'string') return e
    if (e && typeof e === 'object') {
      for (const [condition, target] of Object.entries(e)) {
        if (NODE_CONDITIONS.has(condition)) return pick(target)
      }
    }
    return undefined
  }
  const entry = pick(root) ?? pkg.module ?? pkg.main ?? 'index.js'
  return (await import(pathToFileURL(join(dir, entry)).href)) as T
}
