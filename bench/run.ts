/**
 * `npm run bench`: Tessera against the ceiling (raw node:http) and optionally the peers (the
 * official SDK and mcp-use), side by side in one run. Method and reference figures: bench/README.md.
 *
 *   npm run bench
 *   npm run bench -- --peer                               # + the official SDK and mcp-use (installed on demand)
 *   npm run bench -- --duration 10 --warmup 3 --reps 3 --connections 1,16,64
 *   npm run bench -- --cases tools-call,resources-read --servers raw,tessera
 *   npm run bench -- --generators wrk                     # HTTP cases with wrk only
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { expectJsonRpcResult, type HttpCase, loadHttpCases } from './cases.ts'
import { compiledEnv } from './compiled.ts'
import { Latencies } from './latency.ts'
import { canPin, onServerCpu, pinLoadGenerator, processCpuTimes, processRssMiB } from './machine.ts'
import { commaList } from './options.ts'
import { ensurePeer, PEERS, peerVersions } from './peers.ts'
import { type Operation, runClosedLoop, type Scenario } from './scenario-runner.ts'
import { scenarios } from './scenarios.ts'
import { readyPort, stderrTail } from './server-child.ts'
import { hasWrk, removeWrkScripts, runWrk, wrkCaseScript } from './wrk.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const BENCH = join(ROOT, 'bench')
const READY_TIMEOUT_MS = 30_000
const STOP_TIMEOUT_MS = 3_000

/**
 * The servers. `web` is the same server as a fetch handler, which `--runtime bun` or `deno` serves
 * on that runtime's own server (`servers/serve-web.ts`); a server without one runs on Node only.
 * `env` is added to the server's environment.
 */
const SERVERS: Record<string, { file: string; about: string; web?: string; env?: Record<string, string> }> = {
  raw: {
    file: 'bench/servers/raw.ts',
    about: 'node:http + JSON.parse/stringify of canned answers (ceiling)',
    web: 'bench/servers/raw-web.ts',
  },
  'raw-busy': {
    file: 'bench/servers/raw.ts',
    about: 'the same, spinning 10 µs of CPU more per request (what a slower server pays the kernel)',
    env: { BENCH_BUSY_US: '10' },
  },
  tessera: {
    file: 'bench/servers/tessera.ts',
    about: '@tessera/core listen()',
    web: 'bench/servers/tessera-web.ts',
  },
  'tessera-no-otel': {
    file: 'bench/servers/tessera-no-otel.ts',
    about: 'the same, telemetry: false (the baseline of the instrumentation)',
  },
  'tessera-otel-sdk': {
    file: 'bench/servers/tessera-otel-sdk.ts',
    about: 'the same, with the OpenTelemetry SDK recording every span (batched, dropped)',
  },
  official: {
    file: 'bench/servers/official.ts',
    about: '@modelcontextprotocol/server 2.4 createMcpHandler + node adapter (peer)',
  },
  'mcp-use': {
    file: 'bench/servers/mcp-use.ts',
    about: 'mcp-use 2.5 MCPServer.listen, request log and usage telemetry off (peer)',
  },
}

class Fatal extends Error {}

// ---------------------------------------------------------------- options

function parseCli() {
  try {
    return parseArgs({
      options: {
        duration: { type: 'string', default: '5' },
        warmup: { type: 'string', default: '2' },
        reps: { type: 'string', default: '1' },
        connections: { type: 'string', default: '1,16,64' },
        cases: { type: 'string' },
        servers: { type: 'string', default: 'raw,tessera' },
        generators: { type: 'string' },
        peer: { type: 'boolean', default: false },
        runtime: { type: 'string', default: 'node' },
        'no-pin': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }).values
  } catch (err) {
    console.error(`bench: ${(err as Error).message} (see --help)`)
    process.exit(2)
  }
}
const cli = parseCli()
if (cli.help) {
  console.log(`usage: npm run bench -- [options]
  --duration S        seconds per measurement (default 5)
  --warmup S          seconds of warm-up before the first repetition of each measurement (default 2)
  --reps N            repetitions, median reported (default 1)
  --connections LIST  concurrency levels (default 1,16,64)
  --cases LIST        HTTP cases from bench/requests/cases.json and scenarios from bench/scenarios.ts
                      (default: the ones marked default)
  --servers LIST      raw, tessera, tessera-no-otel, tessera-otel-sdk, official, mcp-use (default raw,tessera)
  --generators LIST   load generators of the HTTP cases: wrk, autocannon (default both; autocannon
                      alone when wrk is not installed: apt-get install wrk)
  --peer              add the peers: the official SDK and mcp-use (each installed into .tessera on demand)
  --runtime R         node (default), or bun or deno: raw and tessera as fetch handlers on Bun.serve
                      or Deno.serve (the devDependencies' binaries), raw being that runtime's ceiling
  --no-pin            do not pin the server to CPU 0 and the load generator to CPU 1`)
  process.exit(0)
}

function positive(name: string, value: string, integer: boolean): number {
  const n = Number(value)
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new Fatal(`--${name} ${value}: not a positive number`)
  }
  return n
}

type Case = HttpCase | Scenario

interface Sample {
  /** req/s (HTTP cases: completed requests / duration) or operations/s (scenarios). */
  rate: number
  /** Latency of successful requests/operations, ms. */
  p50: number
  p99: number
  completed: number
  non2xx: number
  errors: number
  /** CPU used during the measurement, % of one core (Linux /proc for the server). */
  serverCpu?: number
  loadCpu?: number
  /**
   * The server's CPU per completed request or operation, µs, in user space and in the kernel.
   * The second is mostly writes; a write that finds the load generator's thread asleep pays for
   * waking it, so a slower server pays more of it per request for the same bytes.
   */
  serverUserUs?: number
  serverKernelUs?: number
  /** The server's resident memory right after the measurement, MiB. */
  serverRss?: number
  statusCodes?: Record<string, number>
  firstErrors?: string[]
}

/** What sends the load: wrk (C) or autocannon (JavaScript) for HTTP cases; the scenario runner otherwise. */
type Generator = 'wrk' | 'autocannon' | 'scenario'

interface Measurement {
  case: string
  kind: Case['kind']
  generator: Generator
  server: string
  connections: number
  reps: Sample[]
  median: Sample
  ratioToRaw?: number
  ratioToOfficial?: number
  ratioToMcpUse?: number
}

// ---------------------------------------------------------------- helpers

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

function table(header: string[], rows: string[][], leftColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < leftColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')
  return [line(header), ...rows.map(line)].map((l) => `  ${l.trimEnd()}`).join('\n')
}
const int = (n: number) => Math.round(n).toLocaleString('en-US')
const ms = (n: number) => n.toFixed(2)
const pct = (n: number | undefined) => (n === undefined ? '-' : `${Math.round(n)}%`)
const mib = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(0))
const micros = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(1))
const ratio = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(n < 0.1 ? 3 : 2))
const medianOf = (xs: (number | undefined)[]) => {
  const defined = xs.filter((x): x is number => x !== undefined)
  return defined.length === 0 ? undefined : median(defined)
}
/** A transient status line, on terminals only. */
const progress = (text: string) => {
  if (!process.stdout.isTTY) return
  const width = process.stdout.columns - 1
  process.stdout.write(`\r${text.padEnd(width).slice(0, width)}\r`)
}

// ---------------------------------------------------------------- servers

interface Server {
  name: string
  origin: string
  child: ChildProcess
  stderrTail: () => string
  /**
   * Resident memory once it listens, before any request, MiB: what loading the runtime, the
   * framework and the tools costs, beside which the RSS after load shows what serving added.
   */
  startRss?: number
}

const RUNTIMES = ['node', 'bun', 'deno'] as const
type Runtime = (typeof RUNTIMES)[number]

/** How `name` starts on `runtime`: Node runs its file through tsx, Bun and Deno serve its fetch handler. */
function serverCommand(name: string, runtime: Runtime): string[] {
  const def = SERVERS[name]!
  if (runtime === 'node') return [process.execPath, '--import', 'tsx', def.file]
  if (def.web === undefined) throw new Fatal(`server ${name} runs on node only (it has no fetch handler)`)
  const binary = join(ROOT, 'node_modules/.bin', runtime)
  if (!existsSync(binary))
    throw new Fatal(`${runtime} is not installed: run npm install (it is a devDependency)`)
  const serve = join(ROOT, 'bench/servers/serve-web.ts')
  if (runtime === 'bun') return [binary, serve]
  return [binary, 'run', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', '--allow-sys', serve]
}

function startServer(name: string, pin: boolean, runtime: Runtime): Promise<Server> {
  const def = SERVERS[name]!
  const cmd = onServerCpu(serverCommand(name, runtime), pin)
  const child = spawn(cmd[0]!, cmd.slice(1), {
    cwd: ROOT,
    env: {
      ...process.env,
      ...compiledEnv(),
      PORT: '0',
      NODE_ENV: 'production',
      ...(PEERS[name] ? { BENCH_PEER_DIR: PEERS[name].dir } : {}),
      ...(def.web === undefined ? {} : { BENCH_HANDLER: join(ROOT, def.web) }),
      ...def.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const tail = stderrTail(child)
  return readyPort(child, `server ${name} (${def.file})`, READY_TIMEOUT_MS, tail).then(
    (port) => ({
      name,
      origin: `http://127.0.0.1:${port}`,
      child,
      stderrTail: tail,
      startRss: processRssMiB(child.pid),
    }),
    (error: Error) => {
      throw new Fatal(error.message)
    },
  )
}

async function stopServer(server: Server): Promise<void> {
  const { child } = server
  if (child.exitCode !== null || child.signalCode !== null) return
  const gone = new Promise<void>((r) => child.once('exit', () => r()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
  await gone
  clearTimeout(timer)
}

// ---------------------------------------------------------------- measuring

/** Runs one measurement and adds the CPU use of the server and of this (load) process. */
async function withCpu(server: Server, measure: () => Promise<Sample>): Promise<Sample> {
  const s0 = processCpuTimes(server.child.pid)
  const l0 = process.cpuUsage()
  const t0 = performance.now()
  const sample = await measure()
  const wall = (performance.now() - t0) / 1000
  const s1 = processCpuTimes(server.child.pid)
  const l1 = process.cpuUsage(l0)
  if (s0 !== undefined && s1 !== undefined) {
    const user = s1.user - s0.user
    const kernel = s1.system - s0.system
    sample.serverCpu = (100 * (user + kernel)) / wall
    if (sample.completed > 0) {
      sample.serverUserUs = (user * 1e6) / sample.completed
      sample.serverKernelUs = (kernel * 1e6) / sample.completed
    }
  }
  sample.serverRss = processRssMiB(server.child.pid)
  // A generator in its own process (wrk) reports its own CPU; otherwise it is this process.
  sample.loadCpu ??= (100 * (l1.user + l1.system)) / 1e6 / wall
  return sample
}

async function measureHttp(
  server: Server,
  c: HttpCase,
  connections: number,
  seconds: number,
): Promise<Sample> {
  // autocannon's own latency histogram has whole-millisecond resolution: record every 2xx response time.
  const latencies = new Latencies()
  const instance = autocannon({
    url: server.origin + c.path,
    method: 'POST',
    headers: c.headers,
    body: c.body,
    connections,
    duration: seconds,
    pipelining: 1,
  })
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.add(responseTime)
  })
  const r = await instance
  const lat = latencies.summary()
  const statusCodes: Record<string, number> = {}
  for (const [code, { count }] of Object.entries(r.statusCodeStats)) statusCodes[code] = count
  return {
    rate: r.requests.total / r.duration,
    p50: lat.p50,
    p99: lat.p99,
    completed: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    statusCodes,
  }
}

/** One wrk run (one thread, on CPU 1 when pinned); its CPU use read from /proc while it runs. */
async function measureWrk(
  server: Server,
  c: HttpCase,
  connections: number,
  seconds: number,
  pin: boolean,
): Promise<Sample> {
  const url = server.origin + c.path
  const run = await runWrk({ name: c.name, script: wrkCaseScript(c), url, connections, seconds, pin })
  const line = /^WRK (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)$/m.exec(run.out)
  if (run.code !== 0 || line === null)
    throw new Fatal(`wrk failed (exit ${run.code}): ${(run.err || run.out).slice(0, 500)}`)
  const [requests, micros, errors, non2xx, p50, p99] = line.slice(1).map(Number) as number[]
  return {
    rate: requests! / (micros! / 1e6),
    p50: p50! / 1000,
    p99: p99! / 1000,
    completed: requests!,
    non2xx: non2xx!,
    errors: errors!,
    ...(run.cpuPercent === undefined ? {} : { loadCpu: run.cpuPercent }),
  }
}

async function measureScenario(op: Operation, connections: number, seconds: number): Promise<Sample> {
  const r = await runClosedLoop(op, { concurrency: connections, durationMs: seconds * 1000 })
  return {
    rate: r.opsPerSec,
    p50: r.p50,
    p99: r.p99,
    completed: r.operations,
    non2xx: 0,
    errors: r.errors,
    firstErrors: r.firstErrors,
  }
}

/** Sends a case once and checks the answer; returns its body. */
async function preflightHttp(server: Server, c: HttpCase): Promise<string> {
  const res = await fetch(server.origin + c.path, { method: 'POST', headers: c.headers, body: c.body })
  const text = await res.text()
  expectJsonRpcResult(res.status, res.headers.get('content-type'), text, c.id)
  return text
}

/** The raw server must answer Tessera's bytes, or the ratio compares different work. */
function checkSameBytes(answers: Map<string, string>, cases: Case[]): void {
  for (const c of cases) {
    const raw = answers.get(`raw/${c.name}`)
    const tessera = answers.get(`tessera/${c.name}`)
    if (raw === undefined || tessera === undefined || raw === tessera) continue
    throw new Fatal(
      `raw and tessera answer ${c.name} differently (${raw.length} and ${tessera.length} bytes): ` +
        "run `npm run bench:answers` to capture Tessera's answers for the raw server",
    )
  }
}

// ---------------------------------------------------------------- main

async function main(): Promise<number> {
  const duration = positive('duration', cli.duration, false)
  const warmup = Number(cli.warmup)
  if (!Number.isFinite(warmup) || warmup < 0) {
    throw new Fatal(`--warmup ${cli.warmup}: not a number of seconds`)
  }
  const reps = positive('reps', cli.reps, true)
  const connectionLevels = commaList(cli.connections).map((c) => positive('connections', c, true))

  const httpCases = loadHttpCases(join(BENCH, 'requests'))
  const allCases = new Map<string, Case>([...httpCases, ...scenarios.map((s) => [s.name, s] as const)])
  const caseNames = cli.cases
    ? commaList(cli.cases)
    : [...allCases.values()].filter((c) => c.default).map((c) => c.name)
  const cases = caseNames.map((n) => {
    const c = allCases.get(n)
    if (!c) throw new Fatal(`unknown case '${n}' (known: ${[...allCases.keys()].join(', ')})`)
    if (c.era !== '2026-07-28') {
      throw new Fatal(`case '${n}' is ${c.era} traffic; only 2026-07-28 cases are wired for now`)
    }
    return c
  })

  const wanted = cli.generators === undefined ? ['wrk', 'autocannon'] : commaList(cli.generators)
  for (const g of wanted) {
    if (g !== 'wrk' && g !== 'autocannon')
      throw new Fatal(`unknown generator '${g}' (known: wrk, autocannon)`)
  }
  const wrkInstalled = hasWrk()
  if (wanted.includes('wrk') && !wrkInstalled) {
    if (cli.generators !== undefined)
      throw new Fatal('--generators wrk: wrk is not installed (apt-get install wrk)')
    console.log('bench: wrk is not installed (apt-get install wrk): HTTP cases with autocannon only')
  }
  const generators = wanted.filter((g) => g !== 'wrk' || wrkInstalled) as Generator[]
  if (generators.length === 0) throw new Fatal('no load generator left to run the HTTP cases with')

  if (!(RUNTIMES as readonly string[]).includes(cli.runtime))
    throw new Fatal(`--runtime ${cli.runtime}: one of ${RUNTIMES.join(', ')}`)
  const runtime = cli.runtime as Runtime
  const serverNames = commaList(cli.servers)
  if (cli.peer) for (const peer of Object.keys(PEERS)) if (!serverNames.includes(peer)) serverNames.push(peer)
  for (const s of serverNames) {
    if (!SERVERS[s]) throw new Fatal(`unknown server '${s}' (known: ${Object.keys(SERVERS).join(', ')})`)
  }
  for (const peer of Object.keys(PEERS)) {
    if (serverNames.includes(peer) && !ensurePeer(peer)) throw new Fatal(`installing the peer ${peer} failed`)
  }

  const pin = !cli['no-pin'] && canPin
  if (pin && !pinLoadGenerator()) throw new Fatal('taskset -a -cp 1 <pid> failed')
  const runs = cases.flatMap((c): { c: Case; generator: Generator }[] =>
    c.kind === 'http'
      ? generators.map((generator) => ({ c, generator }))
      : [{ c, generator: 'scenario' as const }],
  )
  const total = runs.length * connectionLevels.length * serverNames.length * (reps * duration + warmup)
  console.log(
    `bench: ${serverNames.join(', ')}${runtime === 'node' ? '' : ` on ${runtime}`} | ${caseNames.join(', ')} | c=${connectionLevels.join(',')} | ` +
      `${warmup} s warm-up + ${duration} s x ${reps} | HTTP load: ${generators.join(', ')} | ` +
      `${pin ? 'server on CPU 0, load on CPU 1' : 'not pinned'} | ~${Math.ceil(total)} s of load`,
  )

  const servers: Server[] = []
  const stopAll = () => Promise.all(servers.map(stopServer))
  const onSignal = () => void stopAll().then(() => process.exit(130))
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)

  try {
    const started = await Promise.allSettled(serverNames.map((n) => startServer(n, pin, runtime)))
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value)
    const failedStart = started.find((s): s is PromiseRejectedResult => s.status === 'rejected')
    if (failedStart) throw failedStart.reason
    console.log(
      `bench: RSS once listening, before any request: ${servers.map((server) => `${server.name} ${mib(server.startRss)} MiB`).join(', ')}`,
    )

    // Preflight: every case once per server; a benchmark that measures errors is worthless.
    const ops = new Map<string, Operation>()
    const answers = new Map<string, string>()
    for (const server of servers) {
      for (const c of cases) {
        try {
          if (c.kind === 'http') {
            answers.set(`${server.name}/${c.name}`, await preflightHttp(server, c))
          } else {
            const op = await c.prepare({ server: server.name, origin: server.origin, cases: httpCases })
            await op()
            ops.set(`${server.name}/${c.name}`, op)
          }
        } catch (err) {
          throw new Fatal(`preflight ${server.name} / ${c.name} failed: ${(err as Error).message}`)
        }
      }
    }
    checkSameBytes(answers, cases)

    const measurements: Measurement[] = []
    let invalid = 0
    for (const { c, generator } of runs) {
      for (const connections of connectionLevels) {
        const group: Measurement[] = serverNames.map((server) => ({
          case: c.name,
          kind: c.kind,
          generator,
          server,
          connections,
          reps: [],
          median: { rate: 0, p50: 0, p99: 0, completed: 0, non2xx: 0, errors: 0 },
        }))
        for (let rep = 0; rep < reps; rep++) {
          // Servers interleaved per repetition: a noisy neighbour hits all of them alike.
          for (const [i, server] of servers.entries()) {
            const run = (seconds: number) =>
              withCpu(server, () =>
                c.kind !== 'http'
                  ? measureScenario(ops.get(`${server.name}/${c.name}`)!, connections, seconds)
                  : generator === 'wrk'
                    ? measureWrk(server, c, connections, seconds, pin)
                    : measureHttp(server, c, connections, seconds),
              )
            progress(`${c.name} c=${connections} ${generator} ${server.name} rep ${rep + 1}/${reps} ...`)
            if (rep === 0 && warmup > 0) await run(warmup)
            group[i]!.reps.push(await run(duration))
            await sleep(200)
          }
        }
        progress('')
        const raw = group.find((m) => m.server === 'raw')
        for (const m of group) {
          m.median = {
            rate: median(m.reps.map((s) => s.rate)),
            p50: median(m.reps.map((s) => s.p50)),
            p99: median(m.reps.map((s) => s.p99)),
            completed: m.reps.reduce((a, s) => a + s.completed, 0),
            non2xx: m.reps.reduce((a, s) => a + s.non2xx, 0),
            errors: m.reps.reduce((a, s) => a + s.errors, 0),
            serverCpu: medianOf(m.reps.map((s) => s.serverCpu)),
            loadCpu: medianOf(m.reps.map((s) => s.loadCpu)),
            serverUserUs: medianOf(m.reps.map((s) => s.serverUserUs)),
            serverKernelUs: medianOf(m.reps.map((s) => s.serverKernelUs)),
            serverRss: medianOf(m.reps.map((s) => s.serverRss)),
          }
        }
        const official = group.find((m) => m.server === 'official')
        const mcpUse = group.find((m) => m.server === 'mcp-use')
        for (const m of group) {
          if (raw && raw.median.rate > 0) m.ratioToRaw = m.median.rate / raw.median.rate
          if (official && official.median.rate > 0) m.ratioToOfficial = m.median.rate / official.median.rate
          if (mcpUse && mcpUse.median.rate > 0) m.ratioToMcpUse = m.median.rate / mcpUse.median.rate
        }
        measurements.push(...group)

        const unit = c.kind === 'http' ? 'req/s' : 'ops/s'
        const how = c.kind === 'http' ? generator : `closed-loop scenario: ${c.description}`
        console.log(
          `\n${c.name}  c=${connections}  ${duration} s x ${reps}${reps > 1 ? ' (median)' : ''}  [${how}]`,
        )
        const rows = group.map((m) => {
          const bad = m.median.non2xx + m.median.errors
          if (bad > 0) invalid++
          return [
            m.server,
            int(m.median.rate),
            ms(m.median.p50),
            ms(m.median.p99),
            ratio(m.ratioToRaw),
            ...(official ? [ratio(m.ratioToOfficial)] : []),
            ...(mcpUse ? [ratio(m.ratioToMcpUse)] : []),
            mib(m.median.serverRss),
            pct(m.median.serverCpu),
            micros(m.median.serverUserUs),
            micros(m.median.serverKernelUs),
            pct(m.median.loadCpu),
            String(m.median.non2xx),
            String(m.median.errors) + (bad > 0 ? '  INVALID' : ''),
          ]
        })
        console.log(
          table(
            [
              'server',
              unit,
              'p50 ms',
              'p99 ms',
              'ratio',
              ...(official ? ['to SDK'] : []),
              ...(mcpUse ? ['to mcp-use'] : []),
              'RSS MiB',
              'server CPU',
              'user µs',
              'kernel µs',
              'load CPU',
              'non-2xx',
              'errors',
            ],
            rows,
          ),
        )
        for (const m of group) {
          const { serverCpu, loadCpu } = m.median
          if (
            connections >= 16 &&
            serverCpu !== undefined &&
            loadCpu !== undefined &&
            serverCpu < 90 &&
            loadCpu < 90
          ) {
            console.log(
              `  ${m.server}: neither side saturated its core (server ${pct(serverCpu)}, load ${pct(loadCpu)}): ` +
                'another process took CPU time; re-run before quoting this row',
            )
          }
          const first = m.reps.flatMap((s) => s.firstErrors ?? [])[0]
          if (first) console.log(`  ${m.server}: first error: ${first}`)
          const codes: Record<string, number> = {}
          for (const s of m.reps) {
            for (const [code, n] of Object.entries(s.statusCodes ?? {})) {
              if (code !== '200') codes[code] = (codes[code] ?? 0) + n
            }
          }
          if (Object.keys(codes).length > 0)
            console.log(`  ${m.server}: status codes ${JSON.stringify(codes)}`)
        }
      }
    }

    const stamp = new Date().toISOString().replace(/[:.]/g, '-')
    const outDir = join(BENCH, 'results')
    mkdirSync(outDir, { recursive: true })
    const outFile = join(outDir, `${stamp}.json`)
    const cpus = os.cpus()
    writeFileSync(
      outFile,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          node: process.version,
          platform: `${process.platform}-${process.arch}`,
          cpu: { model: cpus[0]?.model, count: cpus.length },
          pinned: pin,
          options: {
            duration,
            warmup,
            reps,
            connections: connectionLevels,
            cases: caseNames,
            servers: serverNames,
            runtime,
            generators,
          },
          servers: Object.fromEntries(serverNames.map((s) => [s, SERVERS[s]])),
          startRss: Object.fromEntries(servers.map((server) => [server.name, server.startRss])),
          peers: peerVersions(serverNames),
          measurements,
        },
        null,
        2,
      )}\n`,
    )
    console.log(`\nbench: results in ${relative(ROOT, outFile)}`)
    if (invalid > 0) {
      console.error(
        `bench: ${invalid} measurement(s) saw non-2xx answers or errors: those numbers are not valid`,
      )
      return 1
    }
    return 0
  } finally {
    await stopAll()
    removeWrkScripts()
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Fatal ? `bench: ${err.message}` : err)
    process.exit(2)
  },
)
