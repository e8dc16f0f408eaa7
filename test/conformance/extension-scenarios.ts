/**
 * @module extension-scenarios
 * The scenarios of extensions the fixture serves (skills), which no revision's requirement set
 * names: each runs on its own after the revision's suite, on that revision's wire, and is held to
 * strictly. A check that fails or warns fails the run, and so does one the suite skipped: the
 * suite skips an extension's checks when the server does not declare it, so a skip means the
 * extension went unchecked.
 */
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { HERE, RESULTS, rel } from './config.ts'
import { readJson } from './inputs.ts'
import { readResults, worstById } from './results.ts'
import { logPathOf, runSuite } from './suite.ts'

/** Runs the extension scenarios of `rev` and prints a line for each; the reasons the run fails. */
export async function runExtensionScenarios(
  node22: string,
  url: string,
  rev: string,
  verbose: boolean,
): Promise<string[]> {
  const scenarios = readJson<Record<string, string[]>>(join(HERE, 'extension-scenarios.json'))[rev] ?? []
  if (scenarios.length === 0) return []
  const problems: string[] = []
  console.log(`  extensions (held to, each run on its own):`)
  for (const scenario of scenarios) {
    const outDir = join(RESULTS, `${rev}-extensions`, scenario)
    rmSync(outDir, { recursive: true, force: true })
    mkdirSync(outDir, { recursive: true })
    const selection = { scenario, specVersion: rev }
    const suite = await runSuite(node22, url, selection, outDir, verbose)
    const checks = [...worstById(readResults(outDir).get(scenario)?.checks ?? []).values()]
    const wrong = checks.filter((c) => c.status !== 'SUCCESS' && c.status !== 'INFO')
    const reasons = [
      ...(checks.length === 0 ? ['no results (the scenario did not run)'] : []),
      ...(suite.exitCode > 1 ? [`suite exit code ${suite.exitCode}`] : []),
      ...wrong.map((c) => `${c.id} ${c.status}${c.errorMessage ? `: ${c.errorMessage.split('\n')[0]}` : ''}`),
    ]
    const mark = reasons.length === 0 ? 'ok' : 'FAIL'
    console.log(`    ${scenario} ${mark}: ${checks.length} checks, log ${rel(logPathOf(selection))}`)
    for (const reason of reasons) {
      console.log(`      x ${reason}`)
      problems.push(`${scenario}: ${reason}`)
    }
  }
  return problems
}
