/**
 * `npm run bench:in-process`: what a fetch handler costs a request without HTTP, on Node, Bun or
 * Deno. Each server's fetch handler (`raw-web.ts`, the ceiling; `tessera-web.ts`, Tessera's
 * web-standard face) answers the case's request in a loop in a fresh process on CPU 0, in timed
 * blocks after a warm-up (`servers/in-process-child.ts`); the servers take turns for `--rounds`
 * rounds, so a neighbour that slows the machine for a while hits each alike. The figure is the
 * fastest block of each process, in microseconds a request: a block cannot run faster than its
 * code, only slower, so the minimum is the one least disturbed. The spread of the rounds is shown
 * beside it. No socket, no parser of HTTP, no load generator: what is left is the handler's own
 * work and the runtime's `Request`/`Response`, which is where two builds of the face differ.
 *
 *   npm run bench:in-process -- [--runtime node|bun|deno] [--servers raw,tessera] [--case tools-call] [--rounds 4]
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { loadHttpCases } from './cases.ts'
import { compiledEnv } from './compiled.ts'
import { onServerCpu } from './machine.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const HANDLERS: Record<string, string> = {
  raw: 'bench/servers/raw-web.ts',
  tessera: 'bench/servers/tessera-web.ts',
}
const { values } = parseArgs({
  options: {
    runtime: { type: 'string', default: 'node' },
    servers: { type: 'string', default: 'raw,tessera' },
    case: { type: 'string', default: 'tools-call' },
    rounds: { type: 'string', default: '4' },
    requests: { type: 'string', default: '20000' },
    blocks: { type: 'string', default: '8' },
  },
})

function fail(message: string): never {
  console.error(`bench:in-process: ${message}`)
  process.exit(2)
}

const runtime = values.runtime
if (runtime !== 'node' && runtime !== 'bun' && runtime !== 'deno')
  fail(`--runtime is node, bun or deno, not ${runtime}`)
const servers = values.servers.split(',')
for (const name of servers) if (HANDLERS[name] === undefined) fail(`unknown server ${name} (raw, tessera)`)
const chosen = loadHttpCases(join(ROOT, 'bench/requests')).get(values.case)
if (chosen === undefined || chosen.era !== '2026-07-28')
  fail(`--case names a 2026-07-28 case of requests/cases.json`)
const rounds = Number(values.rounds)

/** How `file` runs on the chosen runtime, pinned to the server's CPU. */
function command(file: string): string[] {
  if (runtime === 'node') return onServerCpu([process.execPath, '--import', 'tsx', file])
  const binary = join(ROOT, 'node_modules/.bin', runtime)
  if (!existsSync(binary)) fail(`${runtime} is not installed: run npm install (it is a devDependency)`)
  return onServerCpu(
    runtime === 'bun' ? [binary, file] : [binary, 'run', '--allow-env', '--allow-read', '--allow-sys', file],
  )
}

function measure(server: string): number[] {
  const [program, ...args] = command(join(ROOT, 'bench/servers/in-process-child.ts'))
  const child = spawnSync(program!, args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: {
      ...process.env,
      ...compiledEnv(),
      NODE_ENV: 'production',
      BENCH_HANDLER: join(ROOT, HANDLERS[server]!),
      BENCH_CASE: JSON.stringify({
        url: `http://127.0.0.1:8400${chosen!.path}`,
        headers: { host: '127.0.0.1:8400', ...chosen!.headers },
        body: chosen!.body,
      }),
      BENCH_REQUESTS: values.requests,
      BENCH_BLOCKS: values.blocks,
    },
  })
  const line = child.stdout.split('\n').find((l) => l.startsWith('RESULT '))
  if (child.status !== 0 || line === undefined) fail(`${server} failed:\n${child.stderr}${child.stdout}`)
  return (JSON.parse(line.slice(7)) as { perRequest: number[] }).perRequest
}

const fastest = new Map<string, number[]>(servers.map((name) => [name, []]))
console.log(
  `bench:in-process: ${servers.join(', ')} | ${values.case} on ${runtime} | ${rounds} rounds, each ${values.blocks} blocks of ${values.requests} after as many warm-up`,
)
for (let round = 1; round <= rounds; round++) {
  for (const server of servers) fastest.get(server)!.push(Math.min(...measure(server)))
}
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
const baseline = fastest.get('raw')
for (const [server, mins] of fastest) {
  const m = median(mins)
  // A difference, not a ratio: the ceiling here does no HTTP work at all, so a ratio says little.
  const more =
    baseline === undefined || server === 'raw'
      ? ''
      : `, ${(m - median(baseline)).toFixed(2)} µs more than raw`
  console.log(
    `  ${server.padEnd(8)} ${m.toFixed(2)} µs a request (median of the rounds' fastest blocks; rounds ${Math.min(...mins).toFixed(2)}–${Math.max(...mins).toFixed(2)})${more}`,
  )
}
