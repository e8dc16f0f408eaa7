/**
 * @module baseline-check
 * The verdict on one revision beyond the suite's own exit code: every scored scenario and every
 * scenario in required-unscored.json must have run, and each failing or warning check must be in
 * the baseline, while a baseline entry that now passes is stale. Failures of scenarios that are
 * neither scored nor required are reported for information only. Also catches input mistakes:
 * baseline or required-unscored entries that name no scenario of the revision.
 */
import { rel } from './config.ts'
import { loadBaseline, loadNotHeldOn, loadRequiredUnscored, loadRequirements } from './inputs.ts'
import {
  type Check,
  isBad,
  readResults,
  type ScenarioResult,
  type Tally,
  tally,
  worstById,
} from './results.ts'
import type { SuiteRun } from './suite.ts'

/** Everything printed about one revision, and the reasons it fails. */
export interface RevisionReport {
  rev: string
  suite: SuiteRun
  baselinePath: string
  scored: Tally
  unscored: Tally
  /** `<scenario> <mark>` for each scenario held to although not scored. */
  heldTo: string[]
  /** `<scenario>: <reason>` for each unscored scenario this runtime's platform keeps it from being held to. */
  notHeld: string[]
  /** Not-scored, not-held scenarios that produced no results. */
  missingUnscored: string[]
  /** Failing checks not in the baseline. */
  unexpected: string[]
  /** Failing checks in the baseline. */
  expected: string[]
  /** Baseline entries that now pass. */
  stale: string[]
  /** Failures of scenarios that are neither scored nor held to. */
  informational: string[]
  /** Reasons this revision fails, besides the suite's exit code. */
  problems: string[]
}

/** A check's message as listed: in full with --verbose, else its first line, shortened. */
function message(c: Check, verbose: boolean): string {
  const text = (c.errorMessage ?? c.description ?? c.name ?? '').trim()
  if (verbose) return text
  const first = text.split('\n')[0] ?? ''
  return first.length > 240 ? `${first.slice(0, 237)}...` : first
}

export function checkRevision(
  rev: string,
  outDir: string,
  baselinePath: string,
  suite: SuiteRun,
  verbose: boolean,
  runtime?: string,
): RevisionReport {
  const req = loadRequirements(rev)
  const baseline = loadBaseline(baselinePath)
  const notHeld = loadNotHeldOn(runtime, rev)
  const requiredUnscored = loadRequiredUnscored(rev).filter((s) => !notHeld.has(s))
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

  const heldTo = requiredUnscored.map((s) => {
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
  const missingUnscored: string[] = []
  for (const s of missing) {
    if (gated.has(s)) problems.push(`${s}: no results (the scenario did not run)`)
    else missingUnscored.push(s)
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
      } else if (verbose) {
        for (const c of bad) expected.push(`${s}:${c.id}  ${c.status}  ${message(c, verbose)}`)
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
      const line = `${s}:${c.id}  ${c.status}  ${message(c, verbose)}`
      if (ids.has(c.id)) expected.push(line)
      else unexpected.push(line)
    }
  }

  // The suite's exit code already covers scored scenarios; add what it leaves out.
  for (const l of unexpected) {
    const scenario = l.slice(0, l.indexOf(':'))
    if (!req.scored.includes(scenario)) problems.push(`not-scored ${l}`)
  }
  for (const l of stale) {
    const scenario = l.split(':')[0]!
    if (!req.scored.includes(scenario)) problems.push(`stale baseline entry for a not-scored scenario: ${l}`)
  }
  return {
    rev,
    suite,
    baselinePath,
    scored: tally(scored),
    unscored: tally(unscored),
    heldTo,
    notHeld: [...notHeld].map(([s, reason]) => `${s}: ${reason}`),
    missingUnscored,
    unexpected,
    expected,
    stale,
    informational,
    problems,
  }
}
