/**
 * The multi round-trip and single-use benchmark (issues 3 and 4): a plain `tools/call` next to
 * an MRTR round trip (ask + answer, two requests) and a guarded round trip per record store, at
 * concurrency 1 and 16. Each store runs in its own server process pinned to CPU 0; the load
 * (autocannon request sequences, the answer built from the ask's requestState) runs on CPU 1.
 * Ratios are taken within this run: never compare numbers across runs on a shared machine.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import autocannon from 'autocannon'
import { compiledEnv } from './compiled.ts'
import { onServerCpu, pinLoadGenerator } from './machine.ts'

interface Row {
  store: string
  load: string
  connections: number
  roundTripsPerSec: number
  requestsPerSec: number
  p50: number
  p99: number
  non2xx: number
  errors: number
}

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]))
const duration = Number(args.get('duration') ?? 5)
const stores = (args.get('stores') ?? 'memory,sqlite,redis,postgres').split(',')
const connectionsList = (args.get('connections') ?? '1,16').split(',').map(Number)
const pin = pinLoadGenerator()

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
}
const headersFor = (name: string) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': name,
})
const call = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: { text: 'hello world' }, ...extra, _meta: META },
  })

async function startServer(store: string): Promise<{ child: ChildProcess; port: number }> {
  const argv = ['--import', 'tsx', 'bench/servers/tessera-mrtr.ts']
  const cmd = onServerCpu([process.execPath, ...argv], pin)
  const child = spawn(cmd[0]!, cmd.slice(1), {
    env: { ...process.env, ...compiledEnv(), STORE: store, PORT: '0' },
    stdio: 'pipe',
  })
  let out = ''
  child.stdout!.on('data', (d) => {
    out += d
  })
  let err = ''
  child.stderr!.on('data', (d) => {
    err += d
  })
  const deadline = Date.now() + 20_000
  while (!/READY (\d+)/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`server (${store}) did not start: ${err.slice(0, 500)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return { child, port: Number(/READY (\d+)/.exec(out)![1]) }
}

function plain(port: number, connections: number) {
  return autocannon({
    url: `http://127.0.0.1:${port}/mcp`,
    method: 'POST',
    headers: headersFor('echo'),
    body: call('echo'),
    connections,
    duration,
  })
}

/** Two requests per round trip: the ask, then the answer carrying the ask's requestState. */
function roundTrip(port: number, tool: string, connections: number) {
  return autocannon({
    url: `http://127.0.0.1:${port}/mcp`,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/mcp',
        headers: headersFor(tool),
        body: call(tool),
        onResponse: (_status: number, body: string, context: Record<string, unknown>) => {
          context.state = (JSON.parse(body) as { result?: { requestState?: string } }).result?.requestState
        },
      },
      {
        method: 'POST',
        path: '/mcp',
        headers: headersFor(tool),
        setupRequest: (req: Record<string, unknown>, context: Record<string, unknown>) => ({
          ...req,
          body: call(tool, {
            inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
            requestState: context.state,
          }),
        }),
        onResponse: (_status: number, body: string) => {
          if (!body.includes('confirmed hello world')) failures++
        },
      },
    ],
  } as unknown as Parameters<typeof autocannon>[0])
}

let failures = 0

function row(
  store: string,
  load: string,
  connections: number,
  r: Awaited<ReturnType<typeof plain>>,
  perOp: number,
): Row {
  return {
    store,
    load,
    connections,
    roundTripsPerSec: r.requests.total / r.duration / perOp,
    requestsPerSec: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  }
}

async function reachable(store: string): Promise<boolean> {
  if (store === 'redis')
    return spawnSync('redis-cli', ['-h', '127.0.0.1', 'ping'], { encoding: 'utf8' }).stdout?.trim() === 'PONG'
  if (store === 'postgres') return spawnSync('pg_isready', ['-h', '127.0.0.1', '-q']).status === 0
  return true
}

const rows: Row[] = []
for (const store of stores) {
  if (!(await reachable(store))) {
    console.log(`mrtr bench: ${store} is not reachable on 127.0.0.1; skipped`)
    continue
  }
  const { child, port } = await startServer(store)
  try {
    await plain(port, 4) // warm-up
    for (const connections of connectionsList) {
      if (store === stores[0]) {
        rows.push(row(store, 'tools/call (plain)', connections, await plain(port, connections), 1))
        rows.push(
          row(store, 'MRTR round trip', connections, await roundTrip(port, 'confirm', connections), 2),
        )
      }
      rows.push(
        row(store, 'guarded round trip', connections, await roundTrip(port, 'confirm_once', connections), 2),
      )
    }
  } finally {
    child.kill('SIGTERM')
    await once(child, 'exit')
  }
}

const base = new Map(
  rows.filter((r) => r.load === 'tools/call (plain)').map((r) => [r.connections, r.roundTripsPerSec]),
)
const unguarded = new Map(
  rows.filter((r) => r.load === 'MRTR round trip').map((r) => [r.connections, r.roundTripsPerSec]),
)
console.log(`\nMRTR and single-use, ${duration} s per row${pin ? ', server on CPU 0, load on CPU 1' : ''}`)
console.log(
  `${'store'.padEnd(9)}${'load'.padEnd(22)}${'conc'.padStart(5)}${'ops/s'.padStart(10)}${'req/s'.padStart(10)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'vs call'.padStart(9)}${'vs mrtr'.padStart(9)}${'non2xx'.padStart(8)}`,
)
for (const r of rows) {
  const vsCall = r.roundTripsPerSec / (base.get(r.connections) ?? Number.NaN)
  const vsMrtr = r.roundTripsPerSec / (unguarded.get(r.connections) ?? Number.NaN)
  console.log(
    `${r.store.padEnd(9)}${r.load.padEnd(22)}${String(r.connections).padStart(5)}${Math.round(r.roundTripsPerSec).toLocaleString('en-US').padStart(10)}${Math.round(r.requestsPerSec).toLocaleString('en-US').padStart(10)}${r.p50.toFixed(1).padStart(8)}${r.p99.toFixed(1).padStart(8)}${vsCall.toFixed(2).padStart(9)}${vsMrtr.toFixed(2).padStart(9)}${String(r.non2xx + r.errors).padStart(8)}`,
  )
}
console.log(
  'ops/s: calls (plain) or completed round trips (ask + answer); ratios are to the plain call and to the unguarded round trip at the same concurrency.',
)
if (failures > 0 || rows.some((r) => r.non2xx + r.errors > 0)) {
  console.error(
    `mrtr bench: ${failures} answers were not the confirmed result, or requests failed: the numbers are not valid`,
  )
  process.exit(1)
}
