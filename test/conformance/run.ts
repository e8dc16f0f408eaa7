/**
 * @module run
 * `npm run conformance`: runs the official MCP conformance suite (server leg) against the
 * Tessera conformance server.
 *
 *   npm run conformance                          # revisions from test/conformance/revisions.json
 *   npm run conformance -- --revision all        # 2026-07-28 and 2025-11-25
 *   npm run conformance -- --revision 2025-11-25 --verbose
 *   npm run conformance -- --runtime bun         # the fixture on Bun (or deno, workerd), through the fetch face
 *   npm run conformance -- --url http://127.0.0.1:3001/mcp   # a server you started yourself
 *
 * The suite (@modelcontextprotocol/conformance, pinned) needs Node >= 22; it runs on a Node 22
 * binary installed on demand under .tessera/node22. The server under test runs on this Node, or on
 * the Bun, Deno or workerd of the devDependencies (`--runtime`; on workerd, bundled as a Worker).
 * Each revision's run is followed by the extension scenarios the fixture is held to
 * (extension-scenarios.json), each on its own: none of them may fail, warn or skip a check.
 * Results: test/conformance/results/<rev>/server-<scenario>-<ts>/checks.json, suite log
 * test/conformance/results/<rev>.log, server log test/conformance/results/server.log.
 *
 * This entry only puts the steps in order; each lives in its own module of this folder. Exit
 * code 0 when every revision passes, 1 when one fails, 2 for a setup or input problem.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { checkRevision } from './baseline-check.ts'
import { parseCli, selectRevisions } from './cli.ts'
import { die, Fatal, RESULTS, ROOT, rel, SUITE_CLI } from './config.ts'
import { runExtensionScenarios } from './extension-scenarios.ts'
import { choosePort, type RunningServer, startServer, stopServer, waitUntilUp } from './fixture-server.ts'
import { baselineFor } from './inputs.ts'
import { ensureNode22 } from './node22.ts'
import { printReport } from './print.ts'
import { DEFAULT_ENTRIES, parseRuntime, versionOf } from './runtimes.ts'
import { runSuite } from './suite.ts'

const args = parseCli()

/** Runs the suite for one revision and prints its report: its summary entry, and whether it failed. */
async function runRevision(
  rev: string,
  url: string,
  node22: string,
  runtime: string | undefined,
): Promise<{ summary: string; failed: boolean }> {
  const outDir = join(RESULTS, rev)
  rmSync(outDir, { recursive: true, force: true })
  mkdirSync(outDir, { recursive: true })
  const baselinePath = baselineFor(rev)
  console.log(`conformance: ${rev} against ${url} ...`)
  const suite = await runSuite(node22, url, { requirements: rev, baselinePath }, outDir, args.verbose)
  const report = checkRevision(rev, outDir, baselinePath, suite, args.verbose, runtime)
  printReport(report)
  const extensions = await runExtensionScenarios(node22, url, rev, args.verbose)
  const why = [
    ...(suite.exitCode !== 0 ? [`suite exit code ${suite.exitCode}`] : []),
    ...report.problems,
    ...extensions,
  ]
  if (why.length === 0) return { summary: `${rev}: pass`, failed: false }
  for (const w of report.problems) console.log(`  FAIL ${w}`)
  return {
    summary: `${rev}: FAIL (${why.length > 3 ? `${why.slice(0, 3).join('; ')}; ...` : why.join('; ')})`,
    failed: true,
  }
}

async function main(): Promise<number> {
  const revisions = selectRevisions(args.revision)
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
      const runtime = parseRuntime(args.runtime)
      const entry = args.server ?? DEFAULT_ENTRIES[runtime]
      if (!existsSync(resolve(ROOT, entry))) die(`server entry ${entry} does not exist`)
      const port = await choosePort()
      url = `http://127.0.0.1:${port}/mcp`
      console.log(
        `conformance: starting ${entry} on port ${port} (${versionOf(runtime)}); suite on ${rel(node22)}`,
      )
      server = await startServer(entry, port, runtime)
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
      const outcome = await runRevision(rev, url, node22, args.url === undefined ? args.runtime : undefined)
      summary.push(outcome.summary)
      if (outcome.failed) failed = true
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
