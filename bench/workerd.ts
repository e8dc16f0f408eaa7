/**
 * `npm run bench:workerd`: what a Worker costs, on workerd without Node compatibility (the
 * `workerd` devDependency), Tessera's beside the official SDK's, each bundled as wrangler bundles
 * it. CPU is read from the workerd process itself (the nanosecond run time of each of its threads,
 * `/proc/<pid>/task/<tid>/schedstat`), so the figures hold workerd's own HTTP handling too; an
 * empty Worker measured the same way gives that part, and every figure is shown net of it.
 *
 * - first request: CPU from spawning workerd until the first `tools/call` is answered (module
 *   evaluation, building the server, the answer), median of `--runs` fresh processes; a Worker
 *   that only loads zod and checks one object shows the part that is the application's own zod;
 * - per `tools/call`: CPU of `--requests` sequential warm calls, divided by their number;
 * - per multi round-trip: the same for an ask and its answer (Tessera only: the official SDK has
 *   no multi round-trip requests).
 *
 *   npm run bench:workerd -- [--runs 10] [--requests 2000]
 */
import type { ChildProcess } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { freePort } from '../test/conformance/fixture-server.ts'
import { serveWorker, workerBuildOptions } from '../test/runtimes/workerd.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '10' }, requests: { type: 'string', default: '2000' } },
})
const RUNS = Number(values.runs)
const REQUESTS = Number(values.requests)
const WARMUP = Math.max(200, Math.floor(REQUESTS / 5))
/** What `serveWorker` runs a Worker without Node compatibility on: a date before it became the default. */
const COMPATIBILITY_DATE = '2026-08-01'

type Era = 'modern' | 'handshake'
interface Worker {
  name: string
  entry: string
  era: Era
  /** The tool a plain call names, and the tool that asks once (multi round-trip), if any. */
  tool?: string
  asks?: string
}

const WORKERS: Worker[] = [
  { name: 'empty Worker', entry: 'bench/bundle/empty-worker.ts', era: 'modern' },
  { name: 'zod alone', entry: 'bench/bundle/zod-worker.ts', era: 'modern' },
  { name: 'tessera', entry: 'bench/bundle/tessera-worker.ts', era: 'modern', tool: 'greet' },
  { name: 'tessera (asks)', entry: 'bench/bundle/tessera-ask-worker.ts', era: 'modern', asks: 'confirm' },
  { name: 'official SDK', entry: 'bench/bundle/official-worker.ts', era: 'handshake', tool: 'greet' },
]

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
}

function request(era: Era, tool: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const modern = era === 'modern'
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': modern ? '2026-07-28' : '2025-11-25',
  }
  if (modern) Object.assign(headers, { 'mcp-method': 'tools/call', 'mcp-name': tool })
  const params = { name: tool, arguments: args, ...extra, ...(modern ? { _meta: META } : {}) }
  return {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
  }
}

/** The JSON-RPC message of a reply, as JSON or as the last `data:` line of an SSE stream. */
async function messageOf(response: Response): Promise<{ result?: Record<string, unknown> }> {
  const text = await response.text()
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return JSON.parse(text)
  const data = text.split('\n').filter((line) => line.startsWith('data: ') && line.length > 6)
  return JSON.parse(data.at(-1)!.slice(6))
}

/** Nanoseconds of CPU every thread of `pid` has run so far. */
function cpuNs(pid: number): number {
  let total = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return total
}

interface Running {
  child: ChildProcess
  url: string
  stop(): void
}

async function start(code: string): Promise<Running> {
  const port = await freePort()
  const { child, stop } = serveWorker(code, port, false)
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  // A bare TCP connection tells when it listens without sending the Worker a request.
  const deadline = Date.now() + 20_000
  for (;;) {
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy()
        done(true)
      })
      socket.once('error', () => done(false))
    })
    if (open) break
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`workerd did not listen: ${stderr}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return { child, url: `http://127.0.0.1:${port}/mcp`, stop }
}

/** One exchange the Worker is measured on: a call, or an ask and its answer. */
async function exchange(worker: Worker, url: string): Promise<void> {
  if (worker.asks !== undefined) {
    const asked = await messageOf(await fetch(url, request(worker.era, worker.asks, { text: 'hi' })))
    const requestState = asked.result?.requestState
    if (typeof requestState !== 'string')
      throw new Error(`no ask from ${worker.name}: ${JSON.stringify(asked)}`)
    const inputResponses = { confirm: { action: 'accept', content: { ok: true } } }
    const answered = await messageOf(
      await fetch(url, request(worker.era, worker.asks, { text: 'hi' }, { inputResponses, requestState })),
    )
    if (answered.result?.content === undefined) throw new Error(`no answer from ${worker.name}`)
    return
  }
  if (worker.tool === undefined) {
    await (await fetch(url, { method: 'POST', body: '{}' })).text()
    return
  }
  const reply = await messageOf(await fetch(url, request(worker.era, worker.tool, { name: 'Ada' })))
  if (reply.result?.content === undefined)
    throw new Error(`no result from ${worker.name}: ${JSON.stringify(reply)}`)
}

interface Measured {
  gzipKiB: number
  firstMs: number
  perExchangeUs: number
}

async function measure(worker: Worker): Promise<Measured> {
  const result = await build({ ...workerBuildOptions(worker.entry), minify: true })
  const code = result.outputFiles![0]!.text
  const firsts: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const running = await start(code)
    try {
      await exchange(worker, running.url)
      firsts.push(cpuNs(running.child.pid!) / 1e6)
    } finally {
      running.stop()
    }
  }
  const running = await start(code)
  try {
    for (let i = 0; i < WARMUP; i++) await exchange(worker, running.url)
    const before = cpuNs(running.child.pid!)
    for (let i = 0; i < REQUESTS; i++) await exchange(worker, running.url)
    const perExchangeUs = (cpuNs(running.child.pid!) - before) / REQUESTS / 1e3
    return {
      gzipKiB: gzipSync(code, { level: 9 }).byteLength / 1024,
      firstMs: median(firsts),
      perExchangeUs,
    }
  } finally {
    running.stop()
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

if (!existsSync(join(ROOT, 'packages/core/dist/web.js'))) {
  console.error('bench:workerd: packages/core/dist is missing: run `npm run build` first')
  process.exit(2)
}
const version = readFileSync(join(ROOT, 'node_modules/workerd/package.json'), 'utf8').match(
  /"version": "([^"]+)"/,
)?.[1]
const measured = new Map<Worker, Measured>()
for (const worker of WORKERS) measured.set(worker, await measure(worker))
const empty = measured.get(WORKERS[0]!)!
console.log(
  `workerd ${version}, compatibility date ${COMPATIBILITY_DATE} (no Node compatibility); CPU of the workerd process`,
)
console.log(`first request: median of ${RUNS} fresh processes; warm: ${REQUESTS} exchanges after ${WARMUP}`)
console.log('worker              gzip KiB   first request CPU ms (net)   CPU per exchange µs (net)')
for (const [worker, m] of measured) {
  const isEmpty = worker === WORKERS[0]
  const what =
    worker.asks !== undefined ? 'ask + answer' : worker.tool !== undefined ? 'tools/call' : 'request'
  const net = (value: number, base: number, digits: number) =>
    isEmpty ? value.toFixed(digits) : `${value.toFixed(digits)} (${(value - base).toFixed(digits)})`
  console.log(
    `${worker.name.padEnd(20)}${m.gzipKiB.toFixed(1).padStart(8)}   ${net(m.firstMs, empty.firstMs, 1).padStart(26)}   ${net(m.perExchangeUs, empty.perExchangeUs, 0).padStart(20)}  ${what}`,
  )
}
