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
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { McpClient, type ToolResult, textOf } from '../examples/ops-catalogue/test/mcp-client.ts'
import { type DemoProcess, startDemo } from './demo-process.ts'
import { Latencies } from './latency.ts'
import { listenFigures } from './listen.ts'
import { pinLoadGenerator } from './machine.ts'
import { runClosedLoop } from './scenario-runner.ts'

const { values: cli } = parseArgs({
  options: {
    seconds: { type: 'string', default: '300' },
    share: { type: 'string', default: '0.8' },
    streams: { type: 'string', default: '10000' },
  },
})
const SERVICES = ['checkout', 'payments-gateway', 'identity', 'search', 'inventory', 'notifications']

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

async function soak(demo: DemoProcess, seconds: number, share: number): Promise<void> {
  const url = demo.url
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
  const rssStart = demo.rssMiB()
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
      const rss = demo.rssMiB()
      rssMax = Math.max(rssMax, rss)
      samples.push(`${elapsed}s ${rss.toFixed(0)} MiB`)
    }
  }
  await Promise.all(pending)
  const rssEnd = demo.rssMiB()
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

async function main(): Promise<void> {
  pinLoadGenerator()
  const dir = mkdtempSync(join(tmpdir(), 'tessera-soak-'))
  const demo = await startDemo(dir)
  try {
    await soak(demo, Number(cli.seconds), Number(cli.share))
    await listenFigures(demo, Number(cli.streams))
  } finally {
    await demo.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(`soak: ${(error as Error).stack ?? String(error)}`)
  process.exit(1)
})
