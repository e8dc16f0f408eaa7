/**
 * `npm run soak`: the ops demo (compiled, SQLite, one process) under sustained mixed load, then
 * under many idle listen streams. Not part of CI: it takes minutes.
 *
 * 1. Calibrate: the mix in a closed loop at c=16 for 10 s gives the maximum rate.
 * 2. Soak: the same mix, open loop, at `--share` (default 80%) of that rate for `--seconds`
 *    (default 300): reads (`service_status`, `deployment_history`) and guarded round trips
 *    (`rollback` asks, the answer declines it, the same answer is sent again and must be a
 *    replay). Reports operations, errors, latency and the server's memory (RSS) over time.
 * 3. Listen: `--streams` (default 10 000) `subscriptions/listen` streams on `ops://catalogue`,
 *    their memory per stream, then one rollback and the time until every stream has its
 *    `notifications/resources/updated`.
 *
 *   npm run soak
 *   npm run soak -- --seconds 60 --streams 2000
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { askRollback, McpClient, type ToolResult, textOf } from '../examples/ops-catalogue/test/mcp-client.ts'
import { Latencies } from './latency.ts'
import { runClosedLoop } from './scenario-runner.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const { values: cli } = parseArgs({
  options: {
    seconds: { type: 'string', default: '300' },
    share: { type: 'string', default: '0.8' },
    streams: { type: 'string', default: '10000' },
  },
})
// The server gets one core and this load generator the other, so neither slows the other down.
const pin = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0
if (pin) spawnSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' })
const SERVICES = ['checkout', 'payments-gateway', 'identity', 'search', 'inventory', 'notifications']

async function startDemo(dir: string): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const argv = [
    'examples/ops-catalogue/dist/main.js',
    '--port',
    '0',
    '--data',
    dir,
    '--rollback-seconds',
    '0',
  ]
  const cmd = pin ? ['taskset', '-c', '0', process.execPath, ...argv] : [process.execPath, ...argv]
  const child = spawn(cmd[0]!, cmd.slice(1), {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const url = await new Promise<string>((ok, fail) => {
    child.once('exit', (code) => fail(new Error(`the demo exited (${code}) before listening`)))
    createInterface({ input: child.stderr! }).on('line', (line) => {
      if (!line.startsWith('{')) return
      const entry = JSON.parse(line) as { event?: string; url?: string }
      if (entry.event === 'listening' && entry.url) ok(entry.url)
    })
  })
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      const gone = new Promise((ok) => child.once('exit', ok))
      child.kill('SIGTERM')
      await gone
    },
  }
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024
}

/** One operation of the mix; throws on anything that is not the expected answer. */
function mixOf(url: string): () => Promise<void> {
  const client = new McpClient(url)
  let n = 0
  return async () => {
    const i = n++
    const service = SERVICES[i % SERVICES.length]!
    const kind = i % 10
    if (kind < 5) {
      const reply = await client.callTool('service_status', { service })
      if (reply.status !== 200 || reply.result?.isError) throw new Error(`status: ${reply.status}`)
      return
    }
    if (kind < 8) {
      const reply = await client.callTool('deployment_history', { service, limit: 5 })
      if (reply.status !== 200 || reply.result?.isError) throw new Error(`history: ${reply.status}`)
      return
    }
    // A guarded round trip: the ask, a declined answer (claimed, nothing done), the same answer again (a replay).
    const ask = (await client.callTool('rollback', { service })).result as ToolResult
    if (ask.resultType !== 'input_required') throw new Error(`rollback did not ask: ${textOf(ask)}`)
    const decline = { inputResponses: { version: { action: 'decline' } }, requestState: ask.requestState }
    const first = (await client.callTool('rollback', { service }, decline)).result as ToolResult
    if (!textOf(first).startsWith('Nothing was done')) throw new Error(`decline: ${textOf(first)}`)
    const again = (await client.callTool('rollback', { service }, decline)).result as ToolResult
    if (!textOf(again).startsWith('Already accepted')) throw new Error(`replay: ${textOf(again)}`)
  }
}

async function soak(url: string, pid: number, seconds: number, share: number): Promise<void> {
  const op = mixOf(url)
  const calibration = await runClosedLoop(op, { concurrency: 16, durationMs: 10_000 })
  const rate = calibration.opsPerSec * share
  console.log(
    `calibrate: ${Math.round(calibration.opsPerSec)} ops/s at c=16 (${calibration.errors} errors); soaking at ${Math.round(rate)} ops/s for ${seconds} s`,
  )
  const latencies = new Latencies()
  let done = 0
  let errors = 0
  const errorsByKind = new Map<string, number>()
  const pending = new Set<Promise<void>>()
  const start = performance.now()
  const rssStart = rssMiB(pid)
  let rssMax = rssStart
  const samples: string[] = []
  let sent = 0
  while (performance.now() - start < seconds * 1000) {
    const due = Math.floor(((performance.now() - start) / 1000) * rate)
    while (sent < due) {
      sent++
      const t0 = performance.now()
      const p = op().then(
        () => {
          done++
          latencies.add(performance.now() - t0)
        },
        (error: unknown) => {
          errors++
          const kind = describeError(error)
          errorsByKind.set(kind, (errorsByKind.get(kind) ?? 0) + 1)
        },
      )
      pending.add(p)
      void p.finally(() => pending.delete(p))
    }
    await new Promise((r) => setTimeout(r, 10))
    const elapsed = Math.floor((performance.now() - start) / 1000)
    if (elapsed > 0 && elapsed % 30 === 0 && samples.length < elapsed / 30) {
      const rss = rssMiB(pid)
      rssMax = Math.max(rssMax, rss)
      samples.push(`${elapsed}s ${rss.toFixed(0)} MiB`)
    }
  }
  await Promise.all(pending)
  const rssEnd = rssMiB(pid)
  const lat = latencies.summary()
  const kinds = [...errorsByKind].map(([kind, n]) => `${n}× ${kind}`).join('; ')
  console.log(
    `soak: ${done} operations, ${errors} errors${kinds ? ` (${kinds})` : ''}, p50 ${lat.p50.toFixed(1)} ms, p99 ${lat.p99.toFixed(1)} ms`,
  )
  console.log(
    `soak: server RSS ${rssStart.toFixed(0)} MiB after calibration, ${rssEnd.toFixed(0)} MiB at the end (max ${rssMax.toFixed(0)}); ${samples.join(', ')}`,
  )
}

/** An error with its cause (fetch puts the socket's error there). */
function describeError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause === undefined ? String(error) : `${String(error)} (${cause.code ?? ''} ${cause.message ?? ''})`
}

interface Stream {
  acked: Promise<void>
  updated: Promise<number>
  request: http.ClientRequest
}

/** One listen stream on `ops://catalogue` over its own connection, read for its ack and its first update. */
function openStream(url: string, agent: http.Agent, n: number): Stream {
  const { port, pathname } = new URL(url)
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  }
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: `s${n}`,
    method: 'subscriptions/listen',
    params: { notifications: { resourceSubscriptions: ['ops://catalogue'] }, _meta: meta },
  })
  let ack!: () => void
  let update!: (at: number) => void
  const acked = new Promise<void>((ok) => {
    ack = ok
  })
  const updated = new Promise<number>((ok) => {
    update = ok
  })
  const request = http.request(
    {
      host: '127.0.0.1',
      port,
      path: pathname,
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'subscriptions/listen',
      },
    },
    (response) => {
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        if (chunk.includes('notifications/subscriptions/acknowledged')) ack()
        if (chunk.includes('notifications/resources/updated')) update(performance.now())
      })
    },
  )
  request.on('error', () => {})
  request.end(body)
  return { acked, updated, request }
}

async function listenFigures(url: string, pid: number, count: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY })
  const before = rssMiB(pid)
  const streams: Stream[] = []
  const opening = performance.now()
  for (let i = 0; i < count; i += 500) {
    const batch = Array.from({ length: Math.min(500, count - i) }, (_, k) => openStream(url, agent, i + k))
    await Promise.all(batch.map((s) => s.acked))
    streams.push(...batch)
  }
  const opened = performance.now() - opening
  await new Promise((r) => setTimeout(r, 2_000))
  const after = rssMiB(pid)
  console.log(
    `listen: ${count} streams open in ${(opened / 1000).toFixed(1)} s; server RSS ${before.toFixed(0)} → ${after.toFixed(0)} MiB, ${(((after - before) * 1024) / count).toFixed(1)} KiB a stream`,
  )
  const client = new McpClient(url)
  const answer = (await askRollback(client, 'reporting')).accept()
  const sent = performance.now()
  const result = (await client.callTool('rollback', { service: 'reporting' }, answer)).result as ToolResult
  if (!textOf(result).startsWith('Rolled')) throw new Error(`the rollback did not happen: ${textOf(result)}`)
  const times = await Promise.all(
    streams.map((s) =>
      Promise.race([s.updated, new Promise<number>((ok) => setTimeout(() => ok(-1), 10_000))]),
    ),
  )
  const missed = times.filter((t) => t < 0).length
  const last = Math.max(...times) - sent
  console.log(
    `listen: one rollback reached ${count - missed} of ${count} streams; the last ${last.toFixed(0)} ms after the answer was sent${missed ? ` (${missed} missed within 10 s)` : ''}`,
  )
  for (const s of streams) s.request.destroy()
  agent.destroy()
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-soak-'))
  const demo = await startDemo(dir)
  try {
    await soak(demo.url, demo.pid, Number(cli.seconds), Number(cli.share))
    await listenFigures(demo.url, demo.pid, Number(cli.streams))
  } finally {
    await demo.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(`soak: ${(error as Error).stack ?? String(error)}`)
  process.exit(1)
})
