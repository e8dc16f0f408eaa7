/**
 * The multi round-trip and single-use benchmark: a plain `tools/call` next to an MRTR round trip
 * (ask + answer, two requests), the same round trip with its form's schema built on each run (a
 * form whose fields depend on the call) and a guarded round trip per record store, at concurrency
 * 1 and 16.
 * Each store runs in its own server process pinned to CPU 0; the load runs on CPU 1: wrk when it
 * is installed (a Lua script that answers each ask with its requestState), else autocannon
 * (request sequences; a JavaScript generator saturates its core first and flattens the ratios).
 * Each repetition measures the three loads back to back and takes its own ratios; a row shows the
 * median of the repetitions. Besides throughput, the server's CPU time per operation, read from
 * /proc: a ratio of those says what a round trip costs the server whatever the generator could send.
 * With wrk, each store also serves plain calls on 4 connections alone and then beside a guarded
 * load on 16 (`--no-beside` skips it): what the store's writes cost the rest of the server's traffic.
 *
 *   npm run bench:mrtr
 *   npm run bench:mrtr -- --stores memory,sqlite --connections 16 --reps 5 --generator autocannon
 *   npm run bench:mrtr -- --stores memory --connections 16 --cpu-prof /tmp/profiles
 *
 * `--cpu-prof DIR` writes each server's V8 CPU profile into DIR when it stops (open it in Chrome's
 * DevTools, or read its self and total times): the profile a missed target is explained by.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { compiledEnv } from './compiled.ts'
import { onServerCpu, pinLoadGenerator, processCpuTimes } from './machine.ts'
import { ANSWERS, CONFIRMED, call, headersFor } from './round-trip-requests.ts'
import { hasWrk, luaString, removeWrkScripts, runWrk, wrkHeaders } from './wrk.ts'

const { values: cli } = parseArgs({
  options: {
    duration: { type: 'string', default: '3' },
    reps: { type: 'string', default: '3' },
    stores: { type: 'string', default: 'memory,sqlite,redis,postgres' },
    connections: { type: 'string', default: '1,16' },
    generator: { type: 'string' },
    'cpu-prof': { type: 'string' },
    'no-beside': { type: 'boolean', default: false },
  },
})
const duration = Number(cli.duration)
const reps = Number(cli.reps)
const stores = cli.stores.split(',')
const connectionsList = cli.connections.split(',').map(Number)
const generator = cli.generator ?? (hasWrk() ? 'wrk' : 'autocannon')
if (generator !== 'wrk' && generator !== 'autocannon') throw new Error(`unknown generator '${generator}'`)
if (generator === 'wrk' && !hasWrk)
  throw new Error('--generator wrk: wrk is not installed (apt-get install wrk)')
const pin = pinLoadGenerator()

type Load = 'tools/call (plain)' | 'MRTR round trip' | 'MRTR, form per call' | 'guarded round trip'
const TOOL: Record<Load, string> = {
  'tools/call (plain)': 'echo',
  'MRTR round trip': 'confirm',
  'MRTR, form per call': 'confirm_per_call',
  'guarded round trip': 'confirm_once',
}

interface Sample {
  /** Calls (plain) or completed round trips per second. */
  opsPerSec: number
  requestsPerSec: number
  p50: number
  p99: number
  /** Server CPU per operation, µs. */
  cpuPerOp: number | undefined
  /** The part of it in user space, µs: without the kernel's writes and the wake-ups they pay. */
  userPerOp: number | undefined
  failed: number
}

/** The answer body, split where the ask's requestState goes. */
const answerAround = (tool: string): [string, string] => {
  const marker = 'REQUEST_STATE_GOES_HERE'
  const [head, tail] = call(tool, { inputResponses: ANSWERS, requestState: marker }).split(marker)
  return [head!, tail!]
}

async function startServer(store: string): Promise<{ child: ChildProcess; port: number }> {
  const profile = cli['cpu-prof'] === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${cli['cpu-prof']}`]
  const cmd = onServerCpu(
    [process.execPath, ...profile, '--import', 'tsx', 'bench/servers/tessera-mrtr.ts'],
    pin,
  )
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

// autocannon: a plain call, or two requests per round trip (the answer carries the ask's state).
async function autocannonLoad(port: number, load: Load, connections: number, seconds: number) {
  const tool = TOOL[load]
  let failed = 0
  const options: Omit<Parameters<typeof autocannon>[0], 'url'> =
    load === 'tools/call (plain)'
      ? { method: 'POST', headers: headersFor(tool), body: call(tool) }
      : {
          requests: [
            {
              method: 'POST',
              path: '/mcp',
              headers: headersFor(tool),
              body: call(tool),
              onResponse: (_s, body, context) => {
                context.state = (
                  JSON.parse(body) as { result?: { requestState?: string } }
                ).result?.requestState
              },
            },
            {
              method: 'POST',
              path: '/mcp',
              headers: headersFor(tool),
              setupRequest: (req, context) => ({
                ...req,
                body: call(tool, { inputResponses: ANSWERS, requestState: context.state }),
              }),
              onResponse: (_s, body) => {
                if (!body.includes(CONFIRMED)) failed++
              },
            },
          ],
        }
  const r = await autocannon({
    url: `http://127.0.0.1:${port}/mcp`,
    connections,
    duration: seconds,
    ...options,
  })
  const perOp = load === 'tools/call (plain)' ? 1 : 2
  return {
    requests: r.requests.total,
    seconds: r.duration,
    ops: r.requests.total / perOp,
    p50: r.latency.p50,
    p99: r.latency.p99,
    failed: failed + r.non2xx + r.errors,
  }
}

/**
 * wrk on one thread: a request takes a state an answer left queued, else it asks; an answer's
 * body must hold the confirmed result. One thread's connections share the queue, so asks and
 * answers stay even, and every ask is answered once.
 */
function wrkScript(load: Load): string {
  const tool = TOOL[load]
  const headers = wrkHeaders(headersFor(tool))
  const [head, tail] = answerAround(tool)
  const sequence =
    load === 'tools/call (plain)'
      ? `wrk.body = ${luaString(call(tool))}
response = function(status, headers, body)
  if status == 200 then ops = ops + 1 else bad = bad + 1 end
end`
      : `local ask, head, tail = ${luaString(call(tool))}, ${luaString(head)}, ${luaString(tail)}
local states = {}
request = function()
  local state = table.remove(states)
  if state then return wrk.format(nil, nil, nil, head .. state .. tail) end
  return wrk.format(nil, nil, nil, ask)
end
response = function(status, headers, body)
  local state = body:match('"requestState":"([^"]+)"')
  if state then states[#states + 1] = state
  elseif body:find(${luaString(CONFIRMED)}, 1, true) then ops = ops + 1
  else bad = bad + 1 end
end`
  return `wrk.method = "POST"
${headers}
ops, bad = 0, 0
${sequence}
local threads = {}
setup = function(thread) threads[#threads + 1] = thread end
done = function(summary, latency, requests)
  local o, b = 0, 0
  for _, t in ipairs(threads) do o = o + t:get("ops"); b = b + t:get("bad") end
  local e = summary.errors
  io.write(string.format("WRK %d %d %d %d %d %d\\n", summary.requests, summary.duration, o,
    b + e.connect + e.read + e.write + e.timeout + e.status, latency:percentile(50), latency:percentile(99)))
end
`
}

async function wrkLoad(port: number, load: Load, connections: number, seconds: number) {
  const url = `http://127.0.0.1:${port}/mcp`
  const run = await runWrk({ name: TOOL[load], script: wrkScript(load), url, connections, seconds, pin })
  const line = /^WRK (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)$/m.exec(run.out)
  if (run.code !== 0 || line === null)
    throw new Error(`wrk failed (exit ${run.code}): ${(run.err || run.out).slice(0, 500)}`)
  const [requests, micros, ops, failed, p50, p99] = line.slice(1).map(Number) as number[]
  return {
    requests: requests!,
    seconds: micros! / 1e6,
    ops: ops!,
    p50: p50! / 1000,
    p99: p99! / 1000,
    failed: failed!,
  }
}

async function measure(server: ChildProcess, port: number, load: Load, connections: number): Promise<Sample> {
  const cpu0 = processCpuTimes(server.pid)
  const r = await (generator === 'wrk' ? wrkLoad : autocannonLoad)(port, load, connections, duration)
  const cpu1 = processCpuTimes(server.pid)
  const measured = cpu0 !== undefined && cpu1 !== undefined && r.ops > 0
  const userPerOp = measured ? ((cpu1.user - cpu0.user) * 1e6) / r.ops : undefined
  const kernelPerOp = measured ? ((cpu1.system - cpu0.system) * 1e6) / r.ops : undefined
  return {
    opsPerSec: r.ops / r.seconds,
    requestsPerSec: r.requests / r.seconds,
    p50: r.p50,
    p99: r.p99,
    cpuPerOp: userPerOp === undefined || kernelPerOp === undefined ? undefined : userPerOp + kernelPerOp,
    userPerOp,
    failed: r.failed,
  }
}

/** Plain calls alone and beside a guarded load, per repetition, on one store's server. */
interface Beside {
  store: string
  alone: number[]
  beside: number[]
  p50: number[]
  p99: number[]
  guarded: number[]
  failed: number
}

const BESIDE_PLAIN = 4
const BESIDE_GUARDED = 16

/** One repetition: plain calls alone, then beside a guarded load that starts before them and ends after. */
async function measureBeside(port: number, row: Beside): Promise<void> {
  const alone = await wrkLoad(port, 'tools/call (plain)', BESIDE_PLAIN, duration)
  const [guarded, plain] = await Promise.all([
    wrkLoad(port, 'guarded round trip', BESIDE_GUARDED, duration + 1),
    new Promise((resolve) => setTimeout(resolve, 500)).then(() =>
      wrkLoad(port, 'tools/call (plain)', BESIDE_PLAIN, duration),
    ),
  ])
  row.alone.push(alone.ops / alone.seconds)
  row.beside.push(plain.ops / plain.seconds)
  row.p50.push(plain.p50)
  row.p99.push(plain.p99)
  row.guarded.push(guarded.ops / guarded.seconds)
  row.failed += alone.failed + plain.failed + guarded.failed
}

async function reachable(store: string): Promise<boolean> {
  if (store === 'redis')
    return spawnSync('redis-cli', ['-h', '127.0.0.1', 'ping'], { encoding: 'utf8' }).stdout?.trim() === 'PONG'
  if (store === 'postgres') return spawnSync('pg_isready', ['-h', '127.0.0.1', '-q']).status === 0
  return true
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

interface Row {
  store: string
  load: Load
  connections: number
  samples: Sample[]
  /** Per repetition: this load's ops/s over the plain call's, and over the unguarded round trip's. */
  vsCall: number[]
  vsMrtr: number[]
  /** Per repetition: this load's server CPU per operation over the plain call's, all of it and in user space. */
  cpuVsCall: number[]
  userVsCall: number[]
}

const rows: Row[] = []
const besides: Beside[] = []
for (const store of stores) {
  if (!(await reachable(store))) {
    console.log(`mrtr bench: ${store} is not reachable on 127.0.0.1; skipped`)
    continue
  }
  const { child, port } = await startServer(store)
  // The plain call and the unguarded round trips do not touch the store: measured once, with memory.
  const loads: Load[] =
    store === stores[0]
      ? ['tools/call (plain)', 'MRTR round trip', 'MRTR, form per call', 'guarded round trip']
      : ['MRTR round trip', 'guarded round trip']
  try {
    for (const load of loads) await measure(child, port, load, 4) // warm-up
    for (const connections of connectionsList) {
      const byLoad = new Map<Load, Row>()
      for (const load of loads) {
        const row: Row = {
          store,
          load,
          connections,
          samples: [],
          vsCall: [],
          vsMrtr: [],
          cpuVsCall: [],
          userVsCall: [],
        }
        byLoad.set(load, row)
        rows.push(row)
      }
      // Rows of another store take their plain call from the first store's rows.
      const plainRow = rows.find((r) => r.load === 'tools/call (plain)' && r.connections === connections)
      for (let rep = 0; rep < reps; rep++) {
        const taken = new Map<Load, Sample>()
        for (const load of loads) {
          const sample = await measure(child, port, load, connections)
          taken.set(load, sample)
          byLoad.get(load)!.samples.push(sample)
        }
        const plain = taken.get('tools/call (plain)') ?? plainRow?.samples[rep]
        const mrtr = taken.get('MRTR round trip')!
        for (const [load, sample] of taken) {
          const row = byLoad.get(load)!
          if (plain !== undefined) {
            row.vsCall.push(sample.opsPerSec / plain.opsPerSec)
            if (sample.cpuPerOp !== undefined && plain.cpuPerOp !== undefined)
              row.cpuVsCall.push(sample.cpuPerOp / plain.cpuPerOp)
            if (sample.userPerOp !== undefined && plain.userPerOp !== undefined)
              row.userVsCall.push(sample.userPerOp / plain.userPerOp)
          }
          row.vsMrtr.push(sample.opsPerSec / mrtr.opsPerSec)
        }
      }
    }
    if (generator === 'wrk' && !cli['no-beside']) {
      const row: Beside = { store, alone: [], beside: [], p50: [], p99: [], guarded: [], failed: 0 }
      for (let rep = 0; rep < reps; rep++) await measureBeside(port, row)
      besides.push(row)
    }
  } finally {
    child.kill('SIGTERM')
    await once(child, 'exit')
  }
}
removeWrkScripts()

const fixed = (value: number | undefined, digits: number, width: number) =>
  (value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits)).padStart(width)
console.log(
  `\nMRTR and single-use: ${generator}, ${reps} × ${duration} s per row${pin ? ', server on CPU 0, load on CPU 1' : ''}`,
)
console.log(
  `${'store'.padEnd(9)}${'load'.padEnd(22)}${'conc'.padStart(5)}${'ops/s'.padStart(9)}${'req/s'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'cpu µs/op'.padStart(10)}${'vs call'.padStart(9)}${'cpu×call'.padStart(9)}${'user×call'.padStart(10)}${'vs mrtr'.padStart(9)}${'failed'.padStart(8)}`,
)
for (const r of rows) {
  const m = (pick: (s: Sample) => number | undefined) => {
    const values = r.samples.map(pick).filter((v): v is number => v !== undefined)
    return values.length === 0 ? undefined : median(values)
  }
  const failed = r.samples.reduce((sum, s) => sum + s.failed, 0)
  console.log(
    `${r.store.padEnd(9)}${r.load.padEnd(22)}${String(r.connections).padStart(5)}${Math.round(
      m((s) => s.opsPerSec)!,
    )
      .toLocaleString('en-US')
      .padStart(9)}${Math.round(m((s) => s.requestsPerSec)!)
      .toLocaleString('en-US')
      .padStart(9)}${fixed(
      m((s) => s.p50),
      2,
      8,
    )}${fixed(
      m((s) => s.p99),
      2,
      8,
    )}${fixed(
      m((s) => s.cpuPerOp),
      0,
      10,
    )}${fixed(r.vsCall.length ? median(r.vsCall) : undefined, 2, 9)}${fixed(r.cpuVsCall.length ? median(r.cpuVsCall) : undefined, 2, 9)}${fixed(r.userVsCall.length ? median(r.userVsCall) : undefined, 2, 10)}${fixed(median(r.vsMrtr), 2, 9)}${String(failed).padStart(8)}`,
  )
}
console.log(
  'ops/s: calls (plain) or completed round trips (ask + answer). vs call and vs mrtr: ops/s over the plain call and over the unguarded round trip at the same concurrency; cpu×call: server CPU per operation over the plain call’s; user×call: the same in user space alone (the kernel’s writes pay for waking the load generator, more often the slower the load); each the median of the repetitions’ own ratios.',
)
if (besides.length > 0) {
  console.log(
    `\nPlain calls on ${BESIDE_PLAIN} connections, alone and beside a guarded load on ${BESIDE_GUARDED} (wrk, both on the load's CPU)`,
  )
  console.log(
    `${'store'.padEnd(9)}${'alone/s'.padStart(9)}${'beside/s'.padStart(10)}${'×'.padStart(7)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'guarded trips/s'.padStart(17)}`,
  )
  for (const b of besides) {
    const ratios = b.beside.map((value, i) => value / b.alone[i]!)
    console.log(
      `${b.store.padEnd(9)}${Math.round(median(b.alone)).toLocaleString('en-US').padStart(9)}${Math.round(median(b.beside)).toLocaleString('en-US').padStart(10)}${fixed(median(ratios), 2, 7)}${fixed(median(b.p50), 2, 8)}${fixed(median(b.p99), 2, 8)}${Math.round(median(b.guarded)).toLocaleString('en-US').padStart(17)}`,
    )
  }
  console.log(
    '×: the plain calls answered beside the guarded load over those answered alone, the median of the repetitions’ own ratios.',
  )
}
if (rows.some((r) => r.samples.some((s) => s.failed > 0)) || besides.some((b) => b.failed > 0)) {
  console.error(
    'mrtr bench: some answers were not the confirmed result, or requests failed: the numbers are not valid',
  )
  process.exit(1)
}
