/**
 * @module print
 * The block the runner prints for each revision: the suite's exit code and time, the tallies of
 * scored and not-scored scenarios, the scenarios held to, then the failing, expected, stale and
 * informational checks, and the suite's own verdict lines.
 */
import { join } from 'node:path'
import type { RevisionReport } from './baseline-check.ts'
import { RESULTS, rel } from './config.ts'
import type { Tally } from './results.ts'

const fmtTally = (t: Tally) =>
  `${t.scenarios} scenarios: ${t.passed} passed, ${t.failed} failed${t.warned ? `, ${t.warned} warned` : ''}` +
  ` | checks: ${t.checksPassed} passed, ${t.checksFailed} failed${t.checksWarned ? `, ${t.checksWarned} warning(s)` : ''}`

export function printReport(r: RevisionReport): void {
  console.log(
    `\n== ${r.rev} == suite exit ${r.suite.exitCode}, ${r.suite.seconds.toFixed(1)} s, log ${rel(join(RESULTS, `${r.rev}.log`))}`,
  )
  console.log(`  scored       ${fmtTally(r.scored)}`)
  console.log(`  not scored   ${fmtTally(r.unscored)}`)
  if (r.heldTo.length > 0) console.log(`  held to (not scored): ${r.heldTo.join(', ')}`)
  for (const s of r.notHeld) console.log(`  not held to on this runtime: ${s}`)
  for (const s of r.missingUnscored) console.log(`  (no results for not-scored ${s})`)
  if (r.unexpected.length > 0) {
    console.log('  failing checks (not in the baseline):')
    for (const l of r.unexpected) console.log(`    x ${l}`)
  }
  if (r.expected.length > 0) {
    console.log(`  expected failures (${rel(r.baselinePath)}):`)
    for (const l of r.expected) console.log(`    ~ ${l}`)
  }
  if (r.stale.length > 0) {
    console.log('  stale baseline entries (now passing: remove them):')
    for (const l of r.stale) console.log(`    ! ${l}`)
  }
  if (r.informational.length > 0) {
    console.log('  not scored, not held to (information only):')
    for (const l of r.informational) console.log(`    - ${l}`)
  }
  for (const l of r.suite.verdict) console.log(`  suite: ${l}`)
}
