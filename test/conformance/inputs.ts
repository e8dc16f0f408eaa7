/**
 * @module inputs
 * The files a conformance run is judged against: the pinned suite's requirements for a revision
 * (which server scenarios it scores), our baseline of expected failures (an empty one written on
 * the fly when a revision has none), and the JSON files of this folder.
 */

import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { die, HERE, RESULTS, rel, SUITE_CLI, SUITE_PKG } from './config.ts'

export interface Requirements {
  scored: string[]
  notScored: Map<string, string> // scenario -> reason
}
export interface Baseline {
  scenarios: Set<string>
  checks: Map<string, Set<string>> // scenario -> check ids
}

export function readJson<T>(path: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T
  } catch (err) {
    return die(`cannot read ${rel(path)}: ${(err as Error).message}`)
  }
}

// `yaml` is a declared dependency of the pinned suite: resolve it from there.
const parseYaml = (src: string): unknown =>
  (createRequire(SUITE_CLI)('yaml') as { parse(s: string): unknown }).parse(src)

export function loadRequirements(rev: string): Requirements {
  const doc = parseYaml(readFileSync(join(SUITE_PKG, `requirements/${rev}.yaml`), 'utf8')) as {
    server?: string[]
    not_scored?: { scenario: string; leg: string; reason: string }[]
  }
  const notScored = new Map<string, string>()
  for (const e of doc.not_scored ?? []) if (e.leg === 'server') notScored.set(e.scenario, e.reason)
  return { scored: doc.server ?? [], notScored }
}

export function loadBaseline(path: string): Baseline {
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

/** The scenarios of `rev` that are not scored by the suite but that this project holds itself to. */
export function loadRequiredUnscored(rev: string): string[] {
  return readJson<Record<string, string[]>>(join(HERE, 'required-unscored.json'))[rev] ?? []
}

/**
 * The unscored scenarios of `rev` a runtime is not held to, each with the platform's reason
 * (not-held-on.json): what the platform forbids, not what Tessera lacks. Empty for a server
 * given by URL, which is held to everything.
 */
export function loadNotHeldOn(runtime: string | undefined, rev: string): Map<string, string> {
  if (runtime === undefined) return new Map()
  const all = readJson<Record<string, Record<string, Record<string, string>>>>(join(HERE, 'not-held-on.json'))
  return new Map(Object.entries(all[runtime]?.[rev] ?? {}))
}

/** The baseline file of `rev`, or an empty one written under results/ when the revision has none. */
export function baselineFor(rev: string): string {
  const own = join(HERE, `expected-failures-${rev}.yml`)
  if (existsSync(own)) return own
  // Same semantics as a baseline with no entries (WARNINGs fail), instead of the laxer no-baseline mode.
  const empty = join(RESULTS, `expected-failures-${rev}.empty.yml`)
  writeFileSync(empty, 'server: []\n')
  console.log(`conformance: no test/conformance/expected-failures-${rev}.yml, using an empty baseline`)
  return empty
}
