/**
 * @module workerd
 * A Worker run by workerd, Cloudflare's runtime (the `workerd` devDependency), as a test or the
 * conformance runner needs one: the entry bundled the way wrangler bundles (esbuild, the
 * `workerd`, `worker` and `browser` conditions, packages through their `exports`), served on
 * 127.0.0.1 with today's compatibility date, under which Node compatibility is on by default, or
 * with one from before, without it.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BuildOptions, build } from 'esbuild'
import { freePort } from '../helpers/logged-process.ts'

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
    external: ['node:*', 'cloudflare:*', ...builtinModules],
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
  return serveWorkers({ code, ports: [port], nodeCompat })
}

/** What `serveWorkers` runs: one bundle as one Worker per port, and the Durable Objects they share. */
export interface WorkersOptions {
  code: string
  /** One Worker (its own isolate) per port, all running `code`. */
  ports: readonly number[]
  nodeCompat: boolean
  /**
   * SQLite-backed Durable Object classes `code` exports, each defined by the first Worker and bound
   * in every one as its `binding`.
   */
  durableObjects?: readonly { className: string; binding: string }[]
  /** Text bindings (a Worker's vars and secrets), the same in every Worker. */
  text?: Readonly<Record<string, string>>
  /**
   * The directory the objects are kept in, so they outlive workerd. Without it they are kept in a
   * directory of their own, removed on stop: workerd gives an object SQL storage only on disk.
   */
  storageDir?: string
}

/**
 * Serves `code` as one Worker per port in one workerd process, sharing Durable Object namespaces
 * when asked; `stop` kills it and removes its files (never a `storageDir` it was given).
 */
export function serveWorkers(options: WorkersOptions): RunningWorker {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-workerd-'))
  writeFileSync(join(dir, 'worker.js'), options.code)
  const objects = options.durableObjects ?? []
  const names = options.ports.map((_, n) => `worker${n}`)
  const services = names.map((name) => `(name = "${name}", worker = .${name})`)
  if (objects.length > 0) {
    const storage = options.storageDir ?? join(dir, 'objects')
    mkdirSync(storage, { recursive: true })
    services.push(`(name = "objects", disk = (path = "${storage}", writable = true))`)
  }
  const text = Object.entries(options.text ?? {}).map(
    ([name, value]) => `(name = "${name}", text = ${JSON.stringify(value)})`,
  )
  const workers = names.map((name, n) => {
    const own = n === 0 && objects.length > 0
    const bindings = [
      ...objects.map(
        ({ className, binding }) =>
          `(name = "${binding}", durableObjectNamespace = (className = "${className}"${own ? '' : `, serviceName = "${names[0]}"`}))`,
      ),
      ...text,
    ]
    const lines = [
      'modules = [(name = "worker.js", esModule = embed "worker.js")],',
      `compatibilityDate = "${COMPATIBILITY_DATES[options.nodeCompat ? 'withNode' : 'withoutNode']}",`,
      `bindings = [${bindings.join(', ')}],`,
    ]
    if (own) {
      const namespaces = objects.map(
        ({ className }) =>
          `(className = "${className}", uniqueKey = "tessera-${className}", enableSql = true)`,
      )
      lines.push(
        `durableObjectNamespaces = [${namespaces.join(', ')}],`,
        'durableObjectStorage = (localDisk = "objects"),',
      )
    }
    return `const ${name} :Workerd.Worker = (\n  ${lines.join('\n  ')}\n);`
  })
  const sockets = options.ports.map(
    (port, n) => `(name = "http${n}", address = "127.0.0.1:${port}", http = (), service = "${names[n]}")`,
  )
  writeFileSync(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [${services.join(', ')}],
  sockets = [${sockets.join(', ')}],
);
${workers.join('\n')}
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

/** What `startWorkers` serves: `entry` (from the repository's root) as `count` Workers, and what they bind. */
export interface StartOptions extends Omit<WorkersOptions, 'code' | 'ports' | 'nodeCompat'> {
  entry: string
  count: number
  /** Default false: a compatibility date before Node compatibility, and no flags. */
  nodeCompat?: boolean
}

export interface StartedWorkers {
  /** The base URL of each Worker. */
  readonly urls: readonly string[]
  /** What workerd printed, a Worker's console included. */
  output(): string
  /** Kills workerd and waits for it to exit. */
  stop(): Promise<void>
}

/** Bundles `entry` and serves it as `count` Workers on free ports, resolving once each answers. */
export async function startWorkers(options: StartOptions): Promise<StartedWorkers> {
  const { entry, count, nodeCompat = false, ...served } = options
  const code = await bundleWorker(entry)
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()))
  const running = serveWorkers({ ...served, code, ports, nodeCompat })
  let output = ''
  const collect = (chunk: Buffer) => {
    output += chunk.toString()
  }
  running.child.stdout?.on('data', collect)
  running.child.stderr?.on('data', collect)
  const exited = new Promise((resolve) => running.child.once('exit', resolve))
  const stop = async () => {
    running.stop()
    if (running.child.exitCode === null && running.child.signalCode === null) await exited
  }
  const urls = ports.map((port) => `http://127.0.0.1:${port}`)
  const deadline = Date.now() + 30_000
  try {
    for (const url of urls) {
      for (;;) {
        if (running.child.exitCode !== null) throw new Error(`workerd exited: ${output}`)
        try {
          await fetch(url)
          break
        } catch {
          if (Date.now() > deadline) throw new Error(`workerd did not listen: ${output}`)
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      }
    }
  } catch (error) {
    await stop()
    throw error
  }
  return { urls, output: () => output, stop }
}
