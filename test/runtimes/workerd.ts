/**
 * @module workerd
 * A Worker run by workerd, Cloudflare's runtime (the `workerd` devDependency), as a test or the
 * conformance runner needs one: the entry bundled the way wrangler bundles (esbuild, the
 * `workerd`, `worker` and `browser` conditions, packages through their `exports`), served on
 * 127.0.0.1 with today's compatibility date, under which Node compatibility is on by default, or
 * with one from before, without it.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BuildOptions, build } from 'esbuild'

const ROOT = join(import.meta.dirname, '../..')
export const WORKERD = join(ROOT, 'node_modules/.bin/workerd')
/**
 * With Node compatibility: a date after it became workerd's default (2026-08-04). Without: a date
 * before it, and no flags, so a `node:` import does not load.
 */
const COMPATIBILITY_DATES = { withNode: '2026-11-01', withoutNode: '2026-08-01' } as const

/**
 * How wrangler bundles `entry` (from the repository's root) for a Worker: one ES module, the Workers
 * conditions, packages through their `exports` (no tsconfig paths), and Node's built-ins left as
 * imports, which workerd's Node compatibility provides.
 */
export function workerBuildOptions(entry: string): BuildOptions {
  return {
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    tsconfigRaw: {},
    external: ['node:*', ...builtinModules],
    logLevel: 'silent',
  }
}

/** `entry` as one ES module a Worker loads. */
export async function bundleWorker(entry: string): Promise<string> {
  const result = await build({ ...workerBuildOptions(entry), write: false })
  return result.outputFiles[0]!.text
}

export interface RunningWorker {
  readonly child: ChildProcess
  stop(): void
}

/**
 * Serves `code` on 127.0.0.1:`port` with workerd, with Node compatibility or without; `stop` kills
 * it and removes its files.
 */
export function serveWorker(code: string, port: number, nodeCompat: boolean): RunningWorker {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-workerd-'))
  writeFileSync(join(dir, 'worker.js'), code)
  writeFileSync(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "${COMPATIBILITY_DATES[nodeCompat ? 'withNode' : 'withoutNode']}",
);
`,
  )
  const child = spawn(WORKERD, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'pipe', 'pipe'] })
  return {
    child,
    stop: () => {
      child.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
