/**
 * @module results
 * The suite's results as the runner reads them: one `checks.json` per scenario directory under
 * results/<rev>/ (a scenario that threw counts as one failed check), each check id collapsed to
 * its worst status, and the pass/fail/warn tally of a set of scenarios.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export type Status = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO'
export interface Check {
  id: string
  name?: string
  description?: string
  status: Status
  errorMessage?: string
}
export interface ScenarioResult {
  scenario: string
  checks: Check[]
}

export const isBad = (c: Check) => c.status === 'FAILURE' || c.status === 'WARNING'

const DIR_RE = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/

export function readResults(dir: string): Map<string, ScenarioResult> {
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

/** Collapse repeated check ids to their worst status (what the suite's baseline compares). */
export function worstById(checks: Check[]): Map<string, Check> {
  const rank = (s: Status) => (s === 'FAILURE' ? 3 : s === 'WARNING' ? 2 : s === 'SUCCESS' ? 1 : 0)
  const byId = new Map<string, Check>()
  for (const c of checks) {
    if (c.status === 'INFO') continue
    const prev = byId.get(c.id)
    if (!prev || rank(c.status) >= rank(prev.status)) byId.set(c.id, c)
  }
  return byId
}

export interface Tally {
  scenarios: number
  passed: number
  warned: number
  failed: number
  checksPassed: number
  checksFailed: number
  checksWarned: number
}

export function tally(results: ScenarioResult[]): Tally {
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
