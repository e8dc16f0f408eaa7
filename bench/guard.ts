/**
 * `npm run bench:guard`: the speed regression guard CI runs, four ratios, each against the one
 * recorded in `bench/baseline.json`: ratios only, since an absolute rate says more about the
 * machine than about the code.
 *
 * - `tools-call` at c=64: a short `npm run bench` (raw and Tessera interleaved, five repetitions,
 *   wrk when installed, else autocannon), and Tessera's throughput over raw's, the median of the
 *   five repetitions' ratios. It fails more than 15% under the recorded ratio.
 * - `tools-call` in instructions: `bench:instructions` on raw and Tessera, the main thread's
 *   instructions per call, Tessera's over raw's. Where the throughput ratio moves by ±20% between
 *   runs of one build, this count moves by about 3%, so it sees a regression of a few percent in
 *   the code a call runs (not in the kernel's share, which the throughput ratio keeps watching).
 * - The MRTR round trip: `bench:instructions` on `tessera-mrtr`, the main thread's instructions
 *   per round trip over those per plain call, for the round trip whose form's schema is built on
 *   each run (the one that also goes through the cache of forms by their fingerprint). An
 *   instruction count, not CPU time: a faster machine makes a plain call cheaper by more than a
 *   round trip, so a ratio of times moves with the machine, while a count does not. It fails past
 *   the recorded ratio by more than its own tolerance, the spread measured between counts of one
 *   build (in `baseline.json`).
 * - Startup to first answer, in instructions: `bench:startup --instructions` (raw node:http and
 *   Tessera with 50 tools, compiled, three starts each under callgrind), the main thread's
 *   instructions from a process's first to its first answer, Tessera's median over raw's. A count
 *   for the same reason as the round trip's: the ratio of start times moved with the machine's
 *   speed. It fails past the recorded ratio by more than its tolerance.
 *
 * A run past a limit is measured once more, and the guard fails only when that run is past it
 * too: a regression in the code shows in both, while on a shared machine the ratio of the same
 * code moves between runs (a burst on a neighbour lowers one run, not two in a row). `--record`
 * writes the measured ratios as the new baseline (record the median of a few runs);
 * `--generator autocannon` measures with autocannon although wrk is installed.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { hasWrk } from './wrk.ts'

const BENCH = dirname(fileURLToPath(import.meta.url))
const ROOT = resolve(BENCH, '..')
const BASELINE = join(BENCH, 'baseline.json')
/** How far under the recorded ratio a run may fall before it fails. */
const TOLERANCE = 0.15
/** Runs before the guard fails: the first, and one more to confirm a run under the floor. */
const ATTEMPTS = 2

interface Baseline {
  case: string
  connections: number
  /** Tessera/raw req/s per generator, from the run that recorded it. */
  ratios: Record<string, number>
  /**
   * Main-thread instructions per `tools/call`, Tessera over raw node:http, and how far above it a
   * count may go.
   */
  instructions: { vsRaw: number; tolerance: number }
  /**
   * Main-thread instructions per MRTR round trip, its form built per call, over per plain call,
   * and how far above it a count may go.
   */
  mrtr: { instructionsVsCall: number; tolerance: number }
  /**
   * Main-thread instructions from start to first answer, Tessera (50 tools, compiled) over raw
   * node:http, and how far above it a count may go.
   */
  startup: { instructionsVsRaw: number; tolerance: number }
  recorded: string
}

interface Results {
  measurements: { server: string; generator: string; reps: { rate: number }[] }[]
}

/**
 * The median of the repetitions' own ratios: raw and Tessera run back to back in each, so a
 * repetition's ratio is taken under the same neighbours, and one noisy repetition cannot move it.
 */
function medianRatio(results: Results, generator: string): number | undefined {
  const of = (server: string) =>
    results.measurements.find((m) => m.server === server && m.generator === generator)?.reps
  const raw = of('raw')
  const tessera = of('tessera')
  if (raw === undefined || tessera === undefined || raw.length !== tessera.length) return undefined
  const ratios = tessera.map((rep, i) => rep.rate / raw[i]!.rate).sort((a, b) => a - b)
  const mid = ratios.length >> 1
  return ratios.length % 2 === 1 ? ratios[mid] : (ratios[mid - 1]! + ratios[mid]!) / 2
}

const { values: cli } = parseArgs({
  options: { record: { type: 'boolean', default: false }, generator: { type: 'string' } },
})
const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')) as Baseline
const wrk = hasWrk()
const generator = cli.generator ?? (wrk ? 'wrk' : 'autocannon')
const args = [
  '--import',
  'tsx',
  join(BENCH, 'run.ts'),
  '--cases',
  baseline.case,
  '--connections',
  String(baseline.connections),
  '--servers',
  'raw,tessera',
  '--generators',
  generator,
  '--reps',
  '5',
  '--duration',
  '3',
  '--warmup',
  '2',
]

/** One run of the benchmark: its median Tessera/raw ratio; exits the process if the run failed. */
function measureCall(): number {
  const run = spawnSync(process.execPath, args, {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  process.stdout.write(run.stdout)
  const file = /bench: results in (\S+)/.exec(run.stdout)?.[1]
  if (run.status !== 0 || file === undefined) fail(`the benchmark failed (exit ${run.status})`)
  const results = JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Results
  return medianRatio(results, generator) ?? fail('the run has no Tessera/raw ratio')
}

/** Runs a bench script that writes its rows with `--json FILE`, and returns those rows. */
function runJsonBench<T>(what: string, script: string, args: string[]): T[] {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-guard-'))
  const json = join(dir, 'rows.json')
  try {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(BENCH, script), ...args, '--json', json],
      {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    process.stdout.write(run.stdout)
    if (run.status !== 0) fail(`the ${what} benchmark failed (exit ${run.status})`)
    return JSON.parse(readFileSync(json, 'utf8')) as T[]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Counts the main thread's instructions per operation of each case on each server; the count of
 * `server` on `name` out of them.
 */
function countInstructions(servers: string, cases: string): (server: string, name: string) => number {
  const args = ['--servers', servers, '--cases', cases, '--main-thread']
  const rows = runJsonBench<{ server: string; case: string; perRequest: number }>(
    'instructions',
    'instructions.ts',
    args,
  )
  return (server, name) =>
    rows.find((row) => row.server === server && row.case === name)?.perRequest ??
    fail(`the count has no ${name} row for ${server}`)
}

/** One count of the guarded case: Tessera's main-thread instructions a request over raw node:http's. */
function measureCallInstructions(): number {
  const count = countInstructions('raw,tessera', baseline.case)
  return count('tessera', baseline.case) / count('raw', baseline.case)
}

/** One count of the MRTR round trip: main-thread instructions of a round trip, its form built per call, over a plain call's. */
function measureRoundTrip(): number {
  const count = countInstructions('tessera-mrtr', 'tools-call,mrtr-per-call')
  return count('tessera-mrtr', 'mrtr-per-call') / count('tessera-mrtr', 'tools-call')
}

/** One count of startup: Tessera's median main-thread instructions to its first answer over raw's. */
function measureStartup(): number {
  const args = ['--servers', 'raw,tessera', '--instructions', '--runs', '3']
  const rows = runJsonBench<{ id: string; vsRaw: number }>('startup', 'startup.ts', args)
  return rows.find((row) => row.id === 'tessera')?.vsRaw ?? fail('the startup run has no Tessera row')
}

function fail(message: string): never {
  console.error(`bench:guard: ${message}`)
  process.exit(1)
}

/**
 * Measures until a run is within `limit` (`ATTEMPTS` at most); whether one was. `keep` says which
 * side of the limit holds: a throughput ratio must stay `at least` it, a cost ratio `at most`.
 */
function holds(
  what: string,
  measure: () => number,
  recorded: number,
  keep: 'at least' | 'at most',
  limit: number,
) {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const measured = measure()
    const past = keep === 'at least' ? measured < limit : measured > limit
    const verdict = !past ? 'ok' : attempt < ATTEMPTS ? 'past the limit: measuring again' : 'REGRESSION'
    console.log(
      `bench:guard: ${what} ${measured.toFixed(3)}; recorded ${recorded.toFixed(3)}, limit ${limit.toFixed(3)}: ${verdict}`,
    )
    if (!past) return true
  }
  return false
}

if (cli.record) {
  const ratios = { ...baseline.ratios, [generator]: Number(measureCall().toFixed(3)) }
  const instructions = { ...baseline.instructions, vsRaw: Number(measureCallInstructions().toFixed(3)) }
  const mrtr = { ...baseline.mrtr, instructionsVsCall: Number(measureRoundTrip().toFixed(3)) }
  const startup = { ...baseline.startup, instructionsVsRaw: Number(measureStartup().toFixed(3)) }
  writeFileSync(
    BASELINE,
    `${JSON.stringify({ ...baseline, ratios, instructions, mrtr, startup, recorded: new Date().toISOString() }, null, 2)}\n`,
  )
  console.log(
    `bench:guard: recorded ${ratios[generator]} (${generator}), instructions ${instructions.vsRaw}, MRTR ${mrtr.instructionsVsCall} and startup ${startup.instructionsVsRaw} in bench/baseline.json`,
  )
  process.exit(0)
}
const recorded =
  baseline.ratios[generator] ??
  fail(`bench/baseline.json records no ratio for ${generator} (run with --record)`)
const callHolds = holds(
  `${baseline.case} c=${baseline.connections} Tessera/raw with ${generator}`,
  measureCall,
  recorded,
  'at least',
  recorded * (1 - TOLERANCE),
)
/** A cost ratio holds while it stays at most `tolerance` above the recorded one. */
const costHolds = (what: string, measure: () => number, recorded: number, tolerance: number) =>
  holds(what, measure, recorded, 'at most', recorded * (1 + tolerance))
const { instructions, mrtr, startup } = baseline
const callInstructionsHold = costHolds(
  `${baseline.case} main-thread instructions Tessera/raw`,
  measureCallInstructions,
  instructions.vsRaw,
  instructions.tolerance,
)
const roundTripHolds = costHolds(
  'MRTR round trip (form per call) main-thread instructions × a plain call',
  measureRoundTrip,
  mrtr.instructionsVsCall,
  mrtr.tolerance,
)
const startupHolds = costHolds(
  'start to first answer (50 tools) main-thread instructions × raw node:http',
  measureStartup,
  startup.instructionsVsRaw,
  startup.tolerance,
)
process.exit(callHolds && callInstructionsHold && roundTripHolds && startupHolds ? 0 : 1)
