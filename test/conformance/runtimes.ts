/**
 * @module runtimes
 * The runtimes the fixture can be served on, each with its entry and the command that starts it:
 * Node (`listen`, through tsx), Bun (`Bun.serve`) and Deno (`Deno.serve`), the last two through
 * the web-standard face and the binaries of the `bun` and `deno` devDependencies.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { die, ROOT } from './config.ts'

export const RUNTIMES = ['node', 'bun', 'deno'] as const
export type Runtime = (typeof RUNTIMES)[number]

const FIXTURE = 'examples/conformance-server/src'

/** The fixture's entry on `runtime`. */
export const DEFAULT_ENTRIES: Readonly<Record<Runtime, string>> = {
  node: `${FIXTURE}/main.ts`,
  bun: `${FIXTURE}/bun.ts`,
  deno: `${FIXTURE}/deno.ts`,
}

/** `raw` as a runtime, or a setup error naming the known ones. */
export function parseRuntime(raw: string): Runtime {
  if ((RUNTIMES as readonly string[]).includes(raw)) return raw as Runtime
  return die(`unknown runtime '${raw}': one of ${RUNTIMES.join(', ')}`)
}

/** The program and arguments that run `entry` on `runtime`. */
export function commandFor(runtime: Runtime, entry: string): { program: string; args: string[] } {
  if (runtime === 'node') return { program: process.execPath, args: ['--import', 'tsx', entry] }
  const program = join(ROOT, 'node_modules/.bin', runtime)
  if (!existsSync(program)) die(`${runtime} is not installed: run npm install (it is a devDependency)`)
  if (runtime === 'bun') return { program, args: [entry] }
  // Loopback only, the environment (PORT, the log level), and reading its own modules.
  return {
    program,
    args: ['run', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', '--allow-sys', entry],
  }
}

/** What `runtime` says its version is, for the log of a run. */
export function versionOf(runtime: Runtime): string {
  if (runtime === 'node') return `Node ${process.version}`
  const { program } = commandFor(runtime, '')
  const out = spawnSync(program, ['--version'], { encoding: 'utf8' }).stdout ?? ''
  const line = out.split('\n')[0]?.trim() ?? ''
  return line.startsWith(runtime) ? line : `${runtime} ${line}`
}
