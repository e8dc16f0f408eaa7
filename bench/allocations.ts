/**
 * `npm run bench:allocations`: where a request's bytes are allocated. Each server runs with V8's
 * sampling heap profiler loaded (`servers/allocation-sampler.ts`), which counts the objects the
 * garbage collector took as well as those that stayed; wrk warms the server up, sampling is
 * switched on for one wrk run and off after it, and the sampled bytes are divided by the requests
 * wrk completed. A sampling profiler estimates: the total moves by a few percent between runs,
 * and an allocation the optimizing compiler removed (an object that never escapes) is not there.
 *
 *   npm run bench:allocations
 *   npm run bench:allocations -- --servers raw,tessera --cases tools-call,resources-read --top 25
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { type HttpCase, loadHttpCases } from './cases.ts'
import { compiledEnv } from './compiled.ts'
import { canPin, onServerCpu } from './machine.ts'
import { commaList } from './options.ts'
import { readyPort, stderrTail } from './server-child.ts'
import { hasWrk, removeWrkScripts, runWrk, wrkCaseScript } from './wrk.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const READY_TIMEOUT_MS = 60_000

const { values: cli } = parseArgs({
  options: {
    servers: { type: 'string', default: 'raw,tessera' },
    cases: { type: 'string', default: 'tools-call' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    top: { type: 'string', default: '15' },
  },
})

/** One node of V8's sampling heap profile. */
interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number }
  selfSize: number
  children: ProfileNode[]
}

interface Running {
  child: ChildProcess
  url: string
  /** Resolves on the next line the sampler writes to stderr. */
  nextSamplerLine(): Promise<string>
}

async function start(server: string, out: string, path: string): Promise<Running> {
  const argv = onServerCpu([
    process.execPath,
    '--import',
    'tsx',
    '--import',
    join(ROOT, 'bench/servers/allocation-sampler.ts'),
    join(ROOT, 'bench/servers', `${server}.ts`),
  ])
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...compiledEnv(), PORT: '0', NODE_ENV: 'production', ALLOCATIONS_OUT: out },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const waiting: Array<(line: string) => void> = []
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (line.startsWith('ALLOCATIONS ')) waiting.shift()?.(line)
  })
  const nextSamplerLine = () => new Promise<string>((resolveLine) => waiting.push(resolveLine))
  const port = await readyPort(child, server, READY_TIMEOUT_MS, stderrTail(child))
  return { child, url: `http://127.0.0.1:${port}${path}`, nextSamplerLine }
}

async function load(c: HttpCase, url: string, seconds: number): Promise<number> {
  const connections = Number(cli.connections)
  const run = await runWrk({ name: c.name, script: wrkCaseScript(c), url, connections, seconds, pin: canPin })
  const line = /^WRK (\d+) \d+ (\d+) (\d+)/m.exec(run.out)
  if (run.code !== 0 || line === null) throw new Error(`wrk failed: ${(run.err || run.out).slice(0, 300)}`)
  if (Number(line[2]) + Number(line[3]) > 0)
    throw new Error(`${c.name}: errors or non-2xx answers under load`)
  return Number(line[1])
}

/** Sampled bytes by allocating function (`name file:line`), the file shortened to its package. */
function bytesByFunction(profile: ProfileNode): Map<string, number> {
  const bytes = new Map<string, number>()
  const walk = (node: ProfileNode): void => {
    const { functionName, url, lineNumber } = node.callFrame
    const where = url.replace(/^.*\/(packages|node_modules|bench)\//, '$1/') || '(native)'
    const key = `${functionName || '(anonymous)'}  ${where}${url ? `:${lineNumber + 1}` : ''}`
    if (node.selfSize > 0) bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize)
    for (const child of node.children) walk(child)
  }
  walk(profile)
  return bytes
}

async function measure(server: string, c: HttpCase, dir: string): Promise<void> {
  const out = join(dir, `${server}-${c.name}.heapprofile`)
  const running = await start(server, out, c.path)
  try {
    await load(c, running.url, Number(cli.warmup))
    const sampling = running.nextSamplerLine()
    running.child.kill('SIGUSR2')
    await sampling
    const requests = await load(c, running.url, Number(cli.seconds))
    const written = running.nextSamplerLine()
    running.child.kill('SIGUSR2')
    await written
    const bytes = bytesByFunction((JSON.parse(readFileSync(out, 'utf8')) as { head: ProfileNode }).head)
    const total = [...bytes.values()].reduce((a, b) => a + b, 0)
    console.log(
      `\n${server}, ${c.name}: ${Math.round(total / requests)} bytes a request (${requests} requests)`,
    )
    const top = [...bytes].sort((a, b) => b[1] - a[1]).slice(0, Number(cli.top))
    for (const [where, n] of top) {
      const share = ((100 * n) / total).toFixed(1).padStart(5)
      console.log(`  ${String(Math.round(n / requests)).padStart(6)} B ${share}%  ${where}`)
    }
  } finally {
    running.child.kill('SIGKILL')
  }
}

if (!hasWrk()) throw new Error('wrk is not installed: run npm run bench:setup')
const cases = loadHttpCases(join(ROOT, 'bench/requests'))
const dir = mkdtempSync(join(os.tmpdir(), 'tessera-allocations-'))
try {
  console.log(
    `allocations: sampled every ${process.env.ALLOCATIONS_INTERVAL ?? 256} bytes, wrk c=${cli.connections}, ${cli.seconds} s after ${cli.warmup} s of warm-up${canPin ? ', server on CPU 0, load on CPU 1' : ''}`,
  )
  for (const name of commaList(cli.cases)) {
    const c = cases.get(name)
    if (c === undefined) throw new Error(`unknown case ${name}: ${[...cases.keys()].join(', ')}`)
    for (const server of commaList(cli.servers)) await measure(server, c, dir)
  }
} finally {
  removeWrkScripts()
  rmSync(dir, { recursive: true, force: true })
}
