/**
 * `npm run bench:guard`: the speed regression guard CI runs. A short `npm run bench` of
 * `tools-call` at c=64 (raw and Tessera interleaved, five repetitions, wrk when installed, else
 * autocannon) and one number from it, Tessera's throughput over raw's: the median of the five
 * repetitions' ratios. It fails when that ratio falls more than 15% under the one recorded in
 * `bench/baseline.json` for the same generator: ratios only, since an absolute rate says more about the machine than about the code.
 * A run under the floor is measured once more, and the guard fails only when that run is under it
 * too: a regression in the code shows in both, while on a shared machine the ratio of the same
 * code can move by ±20% between runs (a burst on a neighbour lowers one run, not two in a row).
 * `--record` writes the measured ratio as the new baseline (record the median of a few runs);
 * `--generator autocannon` measures with autocannon although wrk is installed.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
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
function measure(): number {
  const run = spawnSync(process.execPath, args, {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  process.stdout.write(run.stdout)
  const file = /bench: results in (\S+)/.exec(run.stdout)?.[1]
  if (run.status !== 0 || file === undefined) {
    console.error(`bench:guard: the benchmark failed (exit ${run.status})`)
    process.exit(1)
  }
  const results = JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Results
  const measured = medianRatio(results, generator)
  if (measured === undefined) {
    console.error('bench:guard: the run has no Tessera/raw ratio')
    process.exit(1)
  }
  return measured
}

if (cli.record) {
  const measured = measure()
  const ratios = { ...baseline.ratios, [generator]: Number(measured.toFixed(3)) }
  writeFileSync(
    BASELINE,
    `${JSON.stringify({ ...baseline, ratios, recorded: new Date().toISOString() }, null, 2)}\n`,
  )
  console.log(`bench:guard: recorded ${measured.toFixed(3)} (${generator}) in bench/baseline.json`)
  process.exit(0)
}
const recorded = baseline.ratios[generator]
if (recorded === undefined) {
  console.error(`bench:guard: bench/baseline.json records no ratio for ${generator} (run with --record)`)
  process.exit(1)
}
const floor = recorded * (1 - TOLERANCE)
for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
  const measured = measure()
  const under = measured < floor
  const verdict = !under ? 'ok' : attempt < ATTEMPTS ? 'under the floor: measuring again' : 'REGRESSION'
  console.log(
    `bench:guard: ${baseline.case} c=${baseline.connections} Tessera/raw ${measured.toFixed(3)} with ${generator}; ` +
      `recorded ${recorded.toFixed(3)}, floor ${floor.toFixed(3)}: ${verdict}`,
  )
  if (!under) process.exit(0)
}
process.exit(1)
