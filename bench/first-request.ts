/**
 * `npm run bench:first-request`: where the first request of a fresh Worker isolate spends its CPU,
 * by package. The hello Worker (`bench/bundle/tessera-worker.ts`, its server built at module scope)
 * is bundled as wrangler bundles it, unminified so that esbuild's `// <path>` line before each
 * module tells which package a line belongs to. A fresh Node process (V8, as in workerd) loads the
 * bundle and answers one `tools/call` through its `fetch` (`servers/first-request-child.mjs`),
 * under the V8 sampling profiler: once for the module's evaluation (which builds the server), once
 * for the first answer. Each phase's
 * CPU (`process.cpuUsage`) is the median of `--runs` processes; its self time by package is from
 * the run with the median total.
 *
 *   npm run bench:first-request -- [--runs 7] [--entry bench/bundle/tessera-worker.ts]
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { build } from 'esbuild'
import { workerBuildOptions } from '../test/runtimes/workerd.ts'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    entry: { type: 'string', default: 'bench/bundle/tessera-worker.ts' },
  },
})

/** Samples taken while the process waited: not CPU, so not shown. */
const IDLE = '(idle)'

interface ProfileNode {
  id: number
  callFrame: { url: string; lineNumber: number; functionName: string }
  /** Samples by line (1-based) within the function. */
  positionTicks?: { line: number; ticks: number }[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}
interface Phase {
  cpuMs: number
  /** Self time in ms by package. */
  byPackage: Record<string, number>
}
/** A phase as the child reports it. */
interface RawPhase {
  cpuMs: number
  profile: Profile
}
interface Run {
  evaluation: Phase
  answer: Phase
}

/** The package a line of the bundle belongs to, from the `// <path>` line esbuild writes before each module. */
function packageTable(code: string): (line: number) => string {
  const starts: { line: number; name: string }[] = []
  code.split('\n').forEach((text, line) => {
    const path = /^\/\/ (\S+\.[cm]?[jt]s)$/.exec(text)?.[1]
    if (path !== undefined) starts.push({ line, name: packageOf(path) })
  })
  return (line) => {
    let found = "esbuild's helpers"
    for (const start of starts) {
      if (start.line > line) break
      found = start.name
    }
    return found
  }
}

function packageOf(path: string): string {
  const core = /packages\/core\/dist\/([^/]+)\//.exec(path)
  if (core !== null) return `@tessera/core ${core[1]}/`
  if (path.includes('packages/core/dist/')) return '@tessera/core (entry files)'
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)
  if (module !== null) return module[1]!
  return 'the application'
}

/** V8's own frames by name; `(program)` and the rest are compiling and native code. */
const V8_FRAMES: Readonly<Record<string, string>> = {
  '(garbage collector)': '(GC)',
  '(idle)': IDLE,
}

/**
 * Self time by package. A function of the bundle may span modules (the module's top level is one
 * function holding every module's top-level code), so its time is split by the lines its samples
 * hit (`positionTicks`), each line going to the module it is in.
 */
function selfTimeByPackage(profile: Profile, bundleUrl: string, lineOwner: (line: number) => string) {
  const self = new Map<number, number>()
  profile.samples.forEach((id, n) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[n] ?? 0) / 1000)
  })
  const byPackage: Record<string, number> = {}
  const add = (name: string, ms: number) => {
    byPackage[name] = (byPackage[name] ?? 0) + ms
  }
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0
    if (ms === 0) continue
    const { url, lineNumber, functionName } = node.callFrame
    if (url === '') add(V8_FRAMES[functionName] ?? '(V8: compiling, native code)', ms)
    else if (url !== bundleUrl) add('(Node: module loading, compiling the bundle)', ms)
    else {
      const ticks = node.positionTicks ?? []
      const total = ticks.reduce((sum, tick) => sum + tick.ticks, 0)
      if (total === 0) add(lineOwner(lineNumber), ms)
      for (const tick of ticks) add(lineOwner(tick.line - 1), (ms * tick.ticks) / total)
    }
  }
  return byPackage
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

function table(title: string, phase: Phase, cpuMs: number): void {
  const rows = Object.entries(phase.byPackage)
    .filter(([name, ms]) => ms >= 0.05 && name !== IDLE)
    .sort((a, b) => b[1] - a[1])
  console.log(`\n${title}: ${cpuMs.toFixed(1)} ms CPU (median); self time by package, from the median run:`)
  for (const [name, ms] of rows) console.log(`  ${ms.toFixed(1).padStart(6)} ms  ${name}`)
}

{
  const runs = Number(values.runs)
  const dir = mkdtempSync(join(tmpdir(), 'tessera-first-request-'))
  try {
    const result = await build({ ...workerBuildOptions(values.entry), minify: false })
    const code = result.outputFiles![0]!.text
    const bundlePath = join(dir, 'worker.mjs')
    const childPath = join(import.meta.dirname, 'servers/first-request-child.mjs')
    writeFileSync(bundlePath, code)
    const lineOwner = packageTable(code)
    const measured: Run[] = []
    for (let n = 0; n < runs; n++) {
      // Without tsx: its loader would be profiled with every import of the bundle.
      const ran = spawnSync(process.execPath, [childPath, bundlePath], { encoding: 'utf8' })
      if (ran.status !== 0) throw new Error(`the profiled run failed: ${ran.stderr}`)
      const raw = JSON.parse(ran.stdout) as Record<'evaluation' | 'answer', RawPhase> & { url: string }
      const phase = ({ cpuMs, profile }: RawPhase): Phase => ({
        cpuMs,
        byPackage: selfTimeByPackage(profile, raw.url, lineOwner),
      })
      measured.push({ evaluation: phase(raw.evaluation), answer: phase(raw.answer) })
    }
    const total = (run: Run) => run.evaluation.cpuMs + run.answer.cpuMs
    const middle = [...measured].sort((a, b) => total(a) - total(b))[Math.floor(runs / 2)]!
    console.log(`first request of ${values.entry} on Node ${process.version} (V8), ${runs} fresh processes`)
    table(
      'module evaluation (builds the server)',
      middle.evaluation,
      median(measured.map((r) => r.evaluation.cpuMs)),
    )
    table('the first tools/call', middle.answer, median(measured.map((r) => r.answer.cpuMs)))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
