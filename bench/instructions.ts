/**
 * `npm run bench:instructions`: what one request costs a server in machine instructions, counted
 * by valgrind's callgrind, which repeats to within a fraction of a percent on a shared machine
 * where a throughput figure moves by ±20% between runs. Each server runs under callgrind with
 * counting off; it is warmed up, counting is switched on for N requests, the counters are dumped,
 * and their total divided by N. User-space instructions only: the kernel's share of a request
 * (sockets, writes) is not in it, so a ratio here is the cost of the code, not of the wire.
 *
 *   npm run bench:instructions
 *   npm run bench:instructions -- --servers tessera-no-otel,tessera --cases tools-call --requests 2000
 *   npm run bench:instructions -- --servers raw,tessera --keep /tmp/counts   (callgrind's files, for
 *     callgrind_annotate: where the instructions went, function by function; the server runs with
 *     `--perf-basic-prof`, and the JavaScript functions V8 compiled are named in the files kept)
 *   npm run bench:instructions -- --servers tessera-mrtr --cases tools-call,mrtr,mrtr-guarded
 *     (a multi round trip, ask and answer, and the same under the single-use guard, per operation)
 *   npm run bench:instructions -- --servers tessera-mrtr --cases tools-call,mrtr-per-call --main-thread
 *     (the main thread's instructions only: the JIT's compiler and the collector's helpers run on
 *     threads of their own, and their share is what moves the most between counts of one build)
 *
 * `--json FILE` writes the counts (server, case, instructions per operation) to FILE as well.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { callgrindArgs, controlCallgrind, dumpedInstructions, requireValgrind } from './callgrind.ts'
import { expectJsonRpcResult, type HttpCase, loadHttpCases } from './cases.ts'
import { compiledEnv } from './compiled.ts'
import { nameJitCode } from './jit-names.ts'
import { commaList } from './options.ts'
import { ANSWERS, CONFIRMED, call, headersFor } from './round-trip-requests.ts'
import { readyPort, stderrTail } from './server-child.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const READY_TIMEOUT_MS = 120_000
/** Requests in flight at once: enough to batch like a loaded server, few enough to stay in order. */
const IN_FLIGHT = 4

const { values: cli } = parseArgs({
  options: {
    servers: { type: 'string', default: 'raw,tessera-no-otel,tessera' },
    cases: { type: 'string', default: 'tools-call' },
    requests: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '2000' },
    keep: { type: 'string' },
    'main-thread': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
})

interface Counted {
  server: string
  case: string
  perRequest: number
}

async function startUnderCallgrind(
  server: string,
  dir: string,
): Promise<{ child: ChildProcess; port: number }> {
  const file = join(ROOT, 'bench/servers', `${server}.ts`)
  const child = spawn(
    'valgrind',
    [
      ...callgrindArgs(dir, { atStart: false, mainThread: cli['main-thread'] }),
      process.execPath,
      // The names of the code V8 generates, for the dumps kept (`/tmp/perf-<pid>.map`); V8's own
      // log, which the flag also writes, goes to the count's folder.
      ...(cli.keep !== undefined ? ['--perf-basic-prof', `--logfile=${join(dir, 'v8.log')}`] : []),
      '--import',
      'tsx',
      file,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, ...compiledEnv(), PORT: '0', NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const port = await readyPort(child, `${server} under callgrind`, READY_TIMEOUT_MS, stderrTail(child))
  return { child, port }
}

/** One POST on a kept-alive connection of `agent`: its status, content type and body. */
function post(
  port: number,
  agent: http.Agent,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; contentType: string | null; text: string }> {
  return new Promise((ok, fail) => {
    const request = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', headers, agent },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          text += chunk
        })
        response.on('end', () =>
          ok({
            status: response.statusCode ?? 0,
            contentType: response.headers['content-type'] ?? null,
            text,
          }),
        )
      },
    )
    request.on('error', fail)
    request.end(body)
  })
}

/** A multi round-trip load of `tessera-mrtr`: each operation asks, then answers with the state the ask sealed. */
interface RoundTrip {
  kind: 'round-trip'
  name: string
  /**
   * The tool that asks: `confirm`, `confirm_per_call` (its form built on each run) or
   * `confirm_once` (under the single-use guard).
   */
  tool: string
}

const ROUND_TRIPS: Readonly<Record<string, RoundTrip>> = {
  mrtr: { kind: 'round-trip', name: 'mrtr', tool: 'confirm' },
  'mrtr-per-call': { kind: 'round-trip', name: 'mrtr-per-call', tool: 'confirm_per_call' },
  'mrtr-guarded': { kind: 'round-trip', name: 'mrtr-guarded', tool: 'confirm_once' },
}

/** The ask, then the accepted answer carrying its state; the answer must come back confirmed. */
async function roundTrip(port: number, agent: http.Agent, trip: RoundTrip): Promise<void> {
  const headers = headersFor(trip.tool)
  const asked = await post(port, agent, '/mcp', headers, call(trip.tool))
  const requestState = /"requestState":"([^"]+)"/.exec(asked.text)?.[1]
  if (requestState === undefined) throw new Error(`${trip.tool} did not ask: ${asked.text.slice(0, 200)}`)
  const answer = call(trip.tool, { inputResponses: ANSWERS, requestState })
  const answered = await post(port, agent, '/mcp', headers, answer)
  if (!answered.text.includes(CONFIRMED))
    throw new Error(`${trip.tool} did not confirm: ${answered.text.slice(0, 200)}`)
}

/**
 * Sends `n` operations, `IN_FLIGHT` at a time on kept-alive connections, every answer checked: a
 * copy of the case's request, or a round trip (two requests).
 */
async function send(port: number, c: HttpCase | RoundTrip, n: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT })
  const one = async (): Promise<void> => {
    if (c.kind === 'round-trip') return roundTrip(port, agent, c)
    const { status, contentType, text } = await post(port, agent, c.path, c.headers, c.body)
    expectJsonRpcResult(status, contentType, text, c.id)
  }
  let left = n
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (left-- > 0) await one()
    }),
  )
  agent.destroy()
}

/**
 * Copies callgrind's dumps of one count (`out.1`, …) to `into`, named after server and case, with
 * the JavaScript functions named from the server's perf map, which goes once they are.
 */
function keepDumps(dir: string, into: string, label: string, pid: number): void {
  mkdirSync(into, { recursive: true })
  // V8 writes its map to /tmp whatever TMPDIR says.
  const perfMap = `/tmp/perf-${pid}.map`
  const kept = readdirSync(dir)
    .filter((f) => f.startsWith('out.'))
    .map((file) => {
      const copy = join(into, `callgrind.${label}.${file.replace(/^out\.?/, '')}`)
      copyFileSync(join(dir, file), copy)
      return copy
    })
  if (existsSync(perfMap)) nameJitCode(kept, perfMap)
  rmSync(perfMap, { force: true })
}

async function count(
  server: string,
  c: HttpCase | RoundTrip,
  requests: number,
  warmup: number,
): Promise<number> {
  const dir = mkdtempSync(join(os.tmpdir(), 'tessera-callgrind-'))
  const { child, port } = await startUnderCallgrind(server, dir)
  try {
    await send(port, c, warmup)
    controlCallgrind(dir, child.pid!, '-i', 'on')
    await send(port, c, requests)
    controlCallgrind(dir, child.pid!, '-d')
    const total = dumpedInstructions(dir, cli['main-thread'])
    if (cli.keep !== undefined) keepDumps(dir, cli.keep, `${server}.${c.name}`, child.pid!)
    return total / requests
  } finally {
    child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  requireValgrind()
  const cases = loadHttpCases(join(ROOT, 'bench/requests'))
  const requests = Number(cli.requests)
  const warmup = Number(cli.warmup)
  const results: Counted[] = []
  for (const name of commaList(cli.cases)) {
    const c = cases.get(name) ?? (Object.hasOwn(ROUND_TRIPS, name) ? ROUND_TRIPS[name] : undefined)
    if (c === undefined) throw new Error(`unknown case '${name}'`)
    for (const server of commaList(cli.servers)) {
      process.stdout.write(`  counting ${name} on ${server} (${warmup} warm-up, ${requests} counted) ...\n`)
      results.push({ server, case: name, perRequest: await count(server, c, requests, warmup) })
    }
  }
  if (cli.json !== undefined) writeFileSync(cli.json, `${JSON.stringify(results, null, 2)}\n`)
  for (const name of commaList(cli.cases)) {
    const rows = results.filter((r) => r.case === name)
    const base = rows[0]!.perRequest
    const trip = Object.hasOwn(ROUND_TRIPS, name)
    const unit = trip ? 'round trip (ask and answer)' : 'request'
    const threads = cli['main-thread'] ? ', main thread' : ''
    console.log(`\n${name}: instructions per ${unit} (callgrind, user space${threads})`)
    for (const r of rows) {
      const ratio = base / r.perRequest
      // A round trip against a plain call on the same server: the MRTR figure, free of the machine's noise.
      const call = results.find((c) => c.case === 'tools-call' && c.server === r.server)
      const overCall = trip && call ? `  × tools-call: ${(r.perRequest / call.perRequest).toFixed(2)}` : ''
      console.log(
        `  ${r.server.padEnd(18)} ${Math.round(r.perRequest).toLocaleString('en-US').padStart(10)}  ` +
          `× ${rows[0]!.server}: ${(r.perRequest / base).toFixed(3)}  (speed ${ratio.toFixed(3)})${overCall}`,
      )
    }
  }
}

main().catch((error: unknown) => {
  console.error(`bench:instructions: ${(error as Error).message}`)
  process.exit(2)
})
