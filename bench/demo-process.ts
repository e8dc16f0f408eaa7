/**
 * The ops demo, compiled, as the soak and listen benchmarks run it: on its embedded SQLite in a
 * fresh data folder, in one process or as a cluster of workers, pinned to CPU 0 while the load
 * generator (this process) takes CPU 1, as in `npm run bench`.
 */
import { spawn } from 'node:child_process'
import { dirname, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { descendants, onServerCpu, processRssMiB } from './machine.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

export interface DemoProcess {
  url: string
  pid: number
  /** Resident memory of the demo and every process it forked, MiB. */
  rssMiB(): number
  stop(): Promise<void>
}

export async function startDemo(dir: string, workers = 1): Promise<DemoProcess> {
  const argv = ['examples/ops-catalogue/dist/main.js', '--port', '0', '--data', dir]
  argv.push('--rollback-seconds', '0', ...(workers > 1 ? ['--workers', String(workers)] : []))
  const cmd = onServerCpu([process.execPath, ...argv])
  const child = spawn(cmd[0]!, cmd.slice(1), {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  // One process logs `listening`; the primary of a cluster logs `cluster_listening` once all do.
  const ready = workers > 1 ? 'cluster_listening' : 'listening'
  const url = await new Promise<string>((ok, fail) => {
    child.once('exit', (code) => fail(new Error(`the demo exited (${code}) before listening`)))
    createInterface({ input: child.stderr! }).on('line', (line) => {
      if (!line.startsWith('{')) return
      const entry = JSON.parse(line) as { event?: string; url?: string }
      if (entry.event === ready && entry.url) ok(entry.url)
    })
  })
  const pid = child.pid!
  return {
    url,
    pid,
    rssMiB: () => [pid, ...descendants(pid)].reduce((sum, p) => sum + (processRssMiB(p) ?? 0), 0),
    stop: async () => {
      const gone = new Promise((ok) => child.once('exit', ok))
      child.kill('SIGTERM')
      await gone
    },
  }
}
