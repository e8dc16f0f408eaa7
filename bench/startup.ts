/**
 * `npm run bench:startup`: startup to first answer. Each run spawns a fresh process, waits for
 * `READY <port>`, sends one `tools/call` and stops the clock when the answer has arrived, so the
 * figure holds Node's boot, loading the framework, registering every tool, listening and serving
 * the first call. Three servers, interleaved run by run: plain node:http (the ceiling), Tessera
 * with 50 tools compiled (`node`, the way an installed package runs), and the same file through
 * tsx (how the workspace used to start). Median and p90 of `--runs` runs (default 15).
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '15' }, tools: { type: 'string', default: '50' } },
})
const RUNS = Number(values.runs)

const CALL = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: `tool_${values.tools}`,
    arguments: { service: 'api' },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
    },
  },
}
const HEADERS = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': `tool_${values.tools}`,
}

const SERVERS = [
  { name: 'raw node:http', args: ['bench/servers/startup-raw.mjs'] },
  { name: `tessera, ${values.tools} tools, compiled`, args: ['bench/servers/startup-tools.mjs'] },
  {
    name: `tessera, ${values.tools} tools, tsx`,
    args: ['--import', 'tsx', 'bench/servers/startup-tools.mjs'],
  },
]

async function once(args: string[]): Promise<number> {
  const started = process.hrtime.bigint()
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, TOOLS: values.tools },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  try {
    const port = await new Promise<string>((ready, fail) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line.startsWith('READY ')) ready(line.slice(6))
      })
      child.once('exit', (code) => fail(new Error(`${args.join(' ')} exited (${code}) before READY`)))
    })
    const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify(CALL),
    })
    const body = (await response.json()) as { result?: unknown }
    if (response.status !== 200 || body.result === undefined)
      throw new Error(`bad first answer: ${JSON.stringify(body)}`)
    return Number(process.hrtime.bigint() - started) / 1e6
  } finally {
    child.kill('SIGKILL')
  }
}

if (!existsSync(join(ROOT, 'packages/core/dist/index.js'))) throw new Error('run npm run build first')
const times = new Map<string, number[]>(SERVERS.map((s) => [s.name, []]))
await once(SERVERS[1]!.args) // warm the file cache
for (let run = 0; run < RUNS; run++) {
  for (const server of SERVERS) times.get(server.name)!.push(await once(server.args))
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
const raw = quantile(
  [...times.get(SERVERS[0]!.name)!].sort((a, b) => a - b),
  0.5,
)
console.log(`startup to first answer, ${RUNS} runs each, interleaved (node ${process.version})`)
console.log('server                              median ms   p90 ms   × raw')
for (const [name, list] of times) {
  const sorted = [...list].sort((a, b) => a - b)
  const median = quantile(sorted, 0.5)
  console.log(
    `${name.padEnd(36)}${median.toFixed(0).padStart(9)}${quantile(sorted, 0.9).toFixed(0).padStart(9)}${(median / raw).toFixed(2).padStart(8)}`,
  )
}
