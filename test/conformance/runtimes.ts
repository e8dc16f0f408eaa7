/**
 * @module runtimes
 * The runtimes the fixture can be served on, each with its entry and how it starts: Node
 * (`listen`, through tsx), Bun (`Bun.serve`) and Deno (`Deno.serve`), the last two through the
 * web-standard face and the binaries of the `bun` and `deno` devDependencies, and workerd
 * (Cloudflare's runtime, the `workerd` devDependency), which serves the entry bundled as a Worker:
 * with Node compatibility, without it, and without it with the server's stores in a Durable Object
 * (`@tessera/cloudflare`, the object kept on disk for the run).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { bundleWorker, serveWorker, serveWorkers } from '../runtimes/workerd.ts'
import { die, ROOT } from './config.ts'

/**
 * `workerd` has Node compatibility (today's default); `workerd-no-compat` runs without it, and so
 * does `workerd-durable`, whose server keeps its stores in a Durable Object.
 */
export const RUNTIMES = ['node', 'bun', 'deno', 'workerd', 'workerd-no-compat', 'workerd-durable'] as const
export type Runtime = (typeof RUNTIMES)[number]
export type WorkerRuntime = Extract<Runtime, `workerd${string}`>

/** Whether `runtime` is workerd, which serves an entry bundled as a Worker. */
export function isWorker(runtime: Runtime): runtime is WorkerRuntime {
  return runtime === 'workerd' || runtime === 'workerd-no-compat' || runtime === 'workerd-durable'
}

const FIXTURE = 'examples/conformance-server/src'

/** The fixture's entry on `runtime`. */
export const DEFAULT_ENTRIES: Readonly<Record<Runtime, string>> = {
  node: `${FIXTURE}/main.ts`,
  bun: `${FIXTURE}/bun.ts`,
  deno: `${FIXTURE}/deno.ts`,
  workerd: `${FIXTURE}/worker.ts`,
  'workerd-no-compat': `${FIXTURE}/worker.ts`,
  'workerd-durable': `${FIXTURE}/durable-worker.ts`,
}

/** `raw` as a runtime, or a setup error naming the known ones. */
export function parseRuntime(raw: string): Runtime {
  if ((RUNTIMES as readonly string[]).includes(raw)) return raw as Runtime
  return die(`unknown runtime '${raw}': one of ${RUNTIMES.join(', ')}`)
}

function binaryOf(runtime: Exclude<Runtime, 'node'>): string {
  const name = isWorker(runtime) ? 'workerd' : runtime
  const program = join(ROOT, 'node_modules/.bin', name)
  if (!existsSync(program)) die(`${name} is not installed: run npm install (it is a devDependency)`)
  return program
}

/** The program and arguments that run `entry` on a runtime that runs a file as it is. */
export function commandFor(
  runtime: Exclude<Runtime, WorkerRuntime>,
  entry: string,
): { program: string; args: string[] } {
  // Node (through tsx) and Bun run the sources: `@tessera/*` and core's subpath imports
  // (`#crypto`) through the root tsconfig's paths.
  if (runtime === 'node') return { program: process.execPath, args: ['--import', 'tsx', entry] }
  const program = binaryOf(runtime)
  if (runtime === 'bun') return { program, args: [entry] }
  // Loopback only, the environment (PORT, the log level), and reading its own modules.
  return {
    program,
    args: ['run', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', '--allow-sys', entry],
  }
}

/** A server started on a runtime: its process, and `stop`, which kills it and removes its files. */
export interface Started {
  readonly child: ChildProcess
  stop(): void
}

/** Starts `entry` on `runtime`, listening on 127.0.0.1:`port`; its stdout and stderr are piped. */
export async function startOn(runtime: Runtime, entry: string, port: number): Promise<Started> {
  if (isWorker(runtime)) {
    binaryOf(runtime)
    const code = await bundleWorker(entry)
    if (runtime !== 'workerd-durable') return serveWorker(code, port, runtime === 'workerd')
    return serveWorkers({
      code,
      ports: [port],
      nodeCompat: false,
      durableObjects: [{ className: 'TesseraDurableObject', binding: 'TESSERA' }],
    })
  }
  const { program, args } = commandFor(runtime, entry)
  const child = spawn(program, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return { child, stop: () => child.kill('SIGKILL') }
}

/** What `runtime` says its version is, for the log of a run. */
export function versionOf(runtime: Runtime): string {
  if (runtime === 'node') return `Node ${process.version}`
  const out = spawnSync(binaryOf(runtime), ['--version'], { encoding: 'utf8' }).stdout ?? ''
  const line = out.split('\n')[0]?.trim() ?? ''
  const named = line.startsWith(runtime) ? line : `${runtime} ${line}`
  if (runtime === 'workerd-no-compat') return `${named} without Node compatibility`
  if (runtime === 'workerd-durable') return `${named} without Node compatibility, stores in a Durable Object`
  return named
}
