/**
 * Running wrk, the C load generator, as every benchmark does: one thread, on CPU 1 when pinned,
 * a Lua script of the benchmark's own written to a temporary directory, and the CPU the
 * generator used read from /proc while it runs. The script prints one `WRK …` line that its
 * benchmark parses.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import type { HttpCase } from './cases.ts'
import { processCpuSeconds } from './machine.ts'

export interface WrkRun {
  code: number | null
  out: string
  err: string
  /** The generator's CPU as a percentage of one core, when /proc was readable. */
  cpuPercent: number | undefined
}

let dir: string | undefined

/** Whether wrk is installed. */
export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined
}

/** Runs wrk with `script` (named `name`.lua) against `url`. */
export async function runWrk(options: {
  name: string
  script: string
  url: string
  connections: number
  seconds: number
  pin: boolean
}): Promise<WrkRun> {
  dir ??= mkdtempSync(join(os.tmpdir(), 'tessera-bench-wrk-'))
  const file = join(dir, `${options.name}.lua`)
  writeFileSync(file, options.script)
  const argv = [
    'wrk',
    '-t1',
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    file,
  ]
  const cmd = options.pin ? ['taskset', '-c', '1', ...argv, options.url] : [...argv, options.url]
  const child = spawn(cmd[0]!, cmd.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString()
  })
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString()
  })
  // The last reading before it exits: within 100 ms of its end.
  let cpu: number | undefined
  const t0 = performance.now()
  const poll = setInterval(() => {
    cpu = processCpuSeconds(child.pid) ?? cpu
  }, 100)
  const code = await new Promise<number | null>((ok) => child.once('exit', ok))
  clearInterval(poll)
  const wall = (performance.now() - t0) / 1000
  return { code, out, err, cpuPercent: cpu === undefined ? undefined : (100 * cpu) / wall }
}

/** Removes the scripts' directory (at the end of a benchmark). */
export function removeWrkScripts(): void {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  dir = undefined
}

/**
 * The Lua script that makes wrk send one case: its method, headers and body, and print what the
 * harness reads (requests, seconds, socket errors, non-2xx, p50 and p99 in µs) on one line.
 */
export function wrkCaseScript(c: HttpCase): string {
  return `wrk.method = "POST"
wrk.body = ${luaString(c.body)}
${wrkHeaders(c.headers)}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("WRK %d %d %d %d %d %d\\n", summary.requests, summary.duration,
    e.connect + e.read + e.write + e.timeout, e.status, latency:percentile(50), latency:percentile(99)))
end
`
}

/** A Lua string literal of `text` (JSON's escapes are Lua's for what a request holds). */
export function luaString(text: string): string {
  return JSON.stringify(text)
}

/** The Lua lines that set `headers` on every request wrk sends. */
export function wrkHeaders(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`)
    .join('\n')
}
