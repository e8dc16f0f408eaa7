/**
 * `npm run bench:startup`: startup to first answer. Each run spawns a fresh process, waits for
 * `READY <port>`, sends one `tools/call` and stops the clock when the answer has arrived, so the
 * figure holds Node's boot, loading the framework, registering every tool, listening and serving
 * the first call. The servers, interleaved run by run (`--servers` picks some):
 *
 * - `raw`: plain node:http answering canned bytes (the ceiling);
 * - `zod`: plain node:http that also loads zod, builds the 50 tools' schemas, converts them to
 *   JSON Schema and parses the call's arguments (the floor of any server of zod schemas);
 * - `tessera`: Tessera with 50 tools, compiled (`node`, the way an installed package runs);
 * - `tsx`: the same file through tsx (how the workspace runs it);
 * - `bundled` and `zod-bundled`: the files of `tessera` and `zod` each bundled into one file by
 *   `tessera build`, as a deployment to a function platform ships a server;
 * - `demo`: the ops demo, compiled, restarted on the data folder its first start made (SQLite,
 *   its key file, pino), answering `service_status`;
 * - with `--peer`, `official` and `mcp-use`: the same 50 tools on the official SDK and on mcp-use,
 *   each run from the folder its peer is installed in (`bench/peers.ts`).
 *
 * Median and p90 of `--runs` runs (default 15), and each median over raw's; `--json FILE` writes
 * them. `--instructions` counts instead of timing: each start runs under callgrind, and the figure
 * is its main thread's instructions from its first to its first answer, which the machine's speed
 * does not move (a few runs are enough: `--runs 3`).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { run as runTessera } from '@tessera/cli'
import { callgrindArgs, controlCallgrind, dumpedInstructions, requireValgrind } from './callgrind.ts'
import { ensurePeer, PEERS } from './peers.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    tools: { type: 'string', default: '50' },
    servers: { type: 'string', default: 'raw,zod,zod-bundled,tessera,bundled,tsx,demo' },
    json: { type: 'string' },
    peer: { type: 'boolean', default: false },
    instructions: { type: 'boolean', default: false },
  },
})
const RUNS = Number(values.runs)

/** The first request: `tools/call` of `tool` with `service`, as a 2026-07-28 client sends it. */
function firstCall(tool: string, service: string): { headers: Record<string, string>; body: string } {
  const call = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: tool,
      arguments: { service },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
      },
    },
  }
  const headers = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': tool,
  }
  return { headers, body: JSON.stringify(call) }
}

/** A server of the startup files: prints `READY <port>` on stdout, has `tool_N` tools. */
const readyLine = (line: string) =>
  line.startsWith('READY ') ? `http://127.0.0.1:${line.slice(6)}/mcp` : undefined
/** The demo logs `{"event":"listening","url":…}` on stderr. */
function listeningLine(line: string): string | undefined {
  if (!line.startsWith('{')) return undefined
  const entry = JSON.parse(line) as { event?: string; url?: string }
  return entry.event === 'listening' ? entry.url : undefined
}
// The demo's data folder, made only when the demo is measured.
const DEMO_DATA = values.servers.split(',').includes('demo')
  ? mkdtempSync(join(tmpdir(), 'tessera-startup-demo-'))
  : undefined

// The one-file bundles, made only when measured.
const BUNDLES = /bundled/.test(values.servers) ? mkdtempSync(join(tmpdir(), 'tessera-startup-bundles-')) : ''
/** Where `file`'s bundle is written (by `makeBundles`, before the first run). */
const bundleOf = (file: string) => join(BUNDLES, file.replace(/^.*\//, ''))

/** Bundles each file as an application would, with `tessera build`. */
async function makeBundles(files: string[]): Promise<void> {
  for (const file of files) {
    const code = await runTessera(['build', join(ROOT, file), '--out', bundleOf(file)])
    if (code !== 0) throw new Error(`tessera build ${file} exited ${code}`)
  }
}

interface StartupServer {
  id: string
  name: string
  args: string[]
  /** The URL to call, from a line the server printed once it listens. */
  ready: (line: string) => string | undefined
  /** Whether it prints that line on stderr (else stdout). */
  stderr?: boolean
  call: { headers: Record<string, string>; body: string }
}

const toolCall = firstCall(`tool_${values.tools}`, 'api')
const ALL_SERVERS: StartupServer[] = [
  {
    id: 'raw',
    name: 'raw node:http',
    args: ['bench/servers/startup-raw.mjs'],
    ready: readyLine,
    call: toolCall,
  },
  {
    id: 'zod',
    name: `node:http + zod, ${values.tools} schemas`,
    args: ['bench/servers/startup-zod.mjs'],
    ready: readyLine,
    call: toolCall,
  },
  {
    id: 'tessera',
    name: `tessera, ${values.tools} tools, compiled`,
    args: ['bench/servers/startup-tools.mjs'],
    ready: readyLine,
    call: toolCall,
  },
  {
    id: 'zod-bundled',
    name: `node:http + zod, bundled`,
    args: [bundleOf('bench/servers/startup-zod.mjs')],
    ready: readyLine,
    call: toolCall,
  },
  {
    id: 'bundled',
    name: `tessera, ${values.tools} tools, bundled`,
    args: [bundleOf('bench/servers/startup-tools.mjs')],
    ready: readyLine,
    call: toolCall,
  },
  {
    id: 'tsx',
    name: `tessera, ${values.tools} tools, tsx`,
    args: ['--import', 'tsx', 'bench/servers/startup-tools.mjs'],
    ready: readyLine,
    call: toolCall,
  },
  {
    id: 'demo',
    name: 'the ops demo, compiled',
    args: ['examples/ops-catalogue/dist/main.js', '--port', '0', '--data', DEMO_DATA ?? ''],
    ready: listeningLine,
    stderr: true,
    call: firstCall('service_status', 'checkout'),
  },
]
/** A peer's startup file, copied into the peer's folder so its imports reach the peer's packages. */
function peerServer(id: 'official' | 'mcp-use', name: string): StartupServer {
  if (!ensurePeer(id)) throw new Error(`installing the peer ${id} failed`)
  const file = join(PEERS[id]!.dir, 'startup.mjs')
  copyFileSync(join(ROOT, `bench/servers/startup-${id}.mjs`), file)
  return { id, name, args: [file], ready: readyLine, call: toolCall }
}
if (values.peer) {
  ALL_SERVERS.push(peerServer('official', `official SDK, ${values.tools} tools`))
  ALL_SERVERS.push(peerServer('mcp-use', `mcp-use, ${values.tools} tools`))
}
const wanted = [...values.servers.split(','), ...(values.peer ? ['official', 'mcp-use'] : [])]
for (const id of wanted) {
  if (!ALL_SERVERS.some((server) => server.id === id))
    throw new Error(`unknown server '${id}': one of ${ALL_SERVERS.map((s) => s.id).join(', ')}`)
}
if (!wanted.includes('raw')) throw new Error('--servers must include raw: every figure is over raw')
const SERVERS = ALL_SERVERS.filter((server) => wanted.includes(server.id))

/**
 * Starts `server` (`command` runs node, or valgrind running node) and sends its first call once it
 * listens; resolves with the process, still running, when a good answer has arrived.
 */
async function firstAnswer(server: StartupServer, command: string, args: string[]): Promise<ChildProcess> {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, TOOLS: values.tools, LOG_LEVEL: 'info' },
    stdio: ['ignore', server.stderr ? 'ignore' : 'pipe', server.stderr ? 'pipe' : 'inherit'],
  })
  try {
    const url = await new Promise<string>((ready, fail) => {
      createInterface({ input: (server.stderr ? child.stderr : child.stdout)! }).on('line', (line) => {
        const url = server.ready(line)
        if (url !== undefined) ready(url)
      })
      child.once('exit', (code) =>
        fail(new Error(`${server.args.join(' ')} exited (${code}) before it listened`)),
      )
    })
    const response = await fetch(url, { method: 'POST', ...server.call })
    const body = (await response.json()) as { result?: unknown }
    if (response.status !== 200 || body.result === undefined)
      throw new Error(`bad first answer: ${JSON.stringify(body)}`)
    return child
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
}

/** Milliseconds from spawning `server` to its first answer. */
async function timeOnce(server: StartupServer): Promise<number> {
  const started = process.hrtime.bigint()
  const child = await firstAnswer(server, process.execPath, server.args)
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6
  child.kill('SIGKILL')
  return elapsed
}

/**
 * The main thread's instructions from `server`'s first one to its first answer, under callgrind:
 * the same start as `timeOnce`'s, in a figure the machine's speed does not move.
 */
async function countOnce(server: StartupServer): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-startup-count-'))
  try {
    const valgrind = ['-q', ...callgrindArgs(dir, { atStart: true, mainThread: true })]
    const child = await firstAnswer(server, 'valgrind', [...valgrind, process.execPath, ...server.args])
    try {
      controlCallgrind(dir, child.pid!, '-d')
      return dumpedInstructions(dir, true)
    } finally {
      child.kill('SIGKILL')
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const once = values.instructions ? countOnce : timeOnce

if (!existsSync(join(ROOT, 'packages/core/dist/node/index.js'))) throw new Error('run npm run build first')
if (values.instructions) requireValgrind()
const measured = new Map<string, number[]>(SERVERS.map((s) => [s.name, []]))
if (BUNDLES !== '') await makeBundles(['bench/servers/startup-zod.mjs', 'bench/servers/startup-tools.mjs'])
try {
  // The first start warms the file cache (and makes the demo's data folder).
  for (const server of SERVERS) await timeOnce(server)
  for (let run = 0; run < RUNS; run++) {
    for (const server of SERVERS) measured.get(server.name)!.push(await once(server))
  }
} finally {
  if (DEMO_DATA !== undefined) rmSync(DEMO_DATA, { recursive: true, force: true })
  if (BUNDLES !== '') rmSync(BUNDLES, { recursive: true, force: true })
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
const rows = SERVERS.map((server) => {
  const sorted = [...measured.get(server.name)!].sort((a, b) => a - b)
  return { id: server.id, name: server.name, median: quantile(sorted, 0.5), p90: quantile(sorted, 0.9) }
})
const raw = rows.find((row) => row.id === 'raw')!.median
const unit = values.instructions ? 'instructions' : 'ms'
if (values.instructions) {
  console.log(
    `start to first answer in main-thread instructions (callgrind), ${RUNS} runs each (node ${process.version})`,
  )
} else console.log(`startup to first answer, ${RUNS} runs each, interleaved (node ${process.version})`)
console.log(
  `server                              ${`median ${unit}`.padStart(18)} ${`p90 ${unit}`.padStart(16)}   × raw`,
)
for (const row of rows) {
  const figure = (value: number) => Math.round(value).toLocaleString('en-US')
  console.log(
    `${row.name.padEnd(36)}${figure(row.median).padStart(18)} ${figure(row.p90).padStart(16)}${(row.median / raw).toFixed(2).padStart(8)}`,
  )
}
if (values.json !== undefined) {
  const Unit = values.instructions ? 'Instructions' : 'Ms'
  const out = rows.map((row) => ({
    id: row.id,
    name: row.name,
    [`median${Unit}`]: row.median,
    [`p90${Unit}`]: row.p90,
    vsRaw: row.median / raw,
  }))
  writeFileSync(values.json, `${JSON.stringify(out, null, 2)}\n`)
}
