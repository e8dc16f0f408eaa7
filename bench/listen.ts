/**
 * `npm run bench:listen`: idle `subscriptions/listen` streams on the ops demo (compiled, SQLite),
 * in one process and across two workers. `--streams` (default 10 000) streams on
 * `ops://catalogue`, each on its own connection; the demo's memory per stream; then one rollback
 * and the time from sending its answer until the last stream has its
 * `notifications/resources/updated` (across workers, the change crosses the cluster's bus).
 *
 *   npm run bench:listen
 *   npm run bench:listen -- --streams 2000 --workers 2
 */
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { askRollback, McpClient, type ToolResult, textOf } from '../examples/ops-catalogue/test/mcp-client.ts'
import { type DemoProcess, startDemo } from './demo-process.ts'
import { pinLoadGenerator } from './machine.ts'

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

export async function listenFigures(demo: DemoProcess, count: number): Promise<void> {
  const url = demo.url
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY })
  const before = demo.rssMiB()
  const streams: Stream[] = []
  const opening = performance.now()
  for (let i = 0; i < count; i += 500) {
    const batch = Array.from({ length: Math.min(500, count - i) }, (_, k) => openStream(url, agent, i + k))
    await Promise.all(batch.map((s) => s.acked))
    streams.push(...batch)
  }
  const opened = performance.now() - opening
  await new Promise((r) => setTimeout(r, 2_000))
  const after = demo.rssMiB()
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
  const { values } = parseArgs({
    options: { streams: { type: 'string', default: '10000' }, workers: { type: 'string', default: '1,2' } },
  })
  pinLoadGenerator()
  for (const workers of values.workers.split(',').map(Number)) {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-listen-'))
    const demo = await startDemo(dir, workers)
    try {
      console.log(`listen: the demo with ${workers} worker${workers === 1 ? '' : 's'}`)
      await listenFigures(demo, Number(values.streams))
    } finally {
      await demo.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

if (resolve(fileURLToPath(import.meta.url)) === resolve(process.argv[1] ?? '')) {
  main().catch((error: unknown) => {
    console.error(`listen: ${(error as Error).stack ?? String(error)}`)
    process.exit(1)
  })
}
