/**
 * @module suite
 * One run of the pinned suite's CLI (server leg) for one revision on the Node 22 binary: its output
 * copied to results/<rev>.log (and to the terminal with --verbose), a time limit after which it is
 * killed, and the suite's own verdict lines kept for the summary.
 */
import { spawn } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters as stripAnsi } from 'node:util'
import { RESULTS, ROOT, rel, SUITE_CLI, SUITE_TIMEOUT_MS } from './config.ts'

export interface SuiteRun {
  exitCode: number
  seconds: number
  verdict: string[]
}

/**
 * What one run covers: the scenarios a revision requires (with its baseline of expected
 * failures), or one scenario outside every requirement set, an extension's, on a revision's wire.
 */
export type Selection =
  | { readonly requirements: string; readonly baselinePath: string }
  | { readonly scenario: string; readonly specVersion: string }

/** The log of a selection's run, under results/. */
export function logPathOf(selection: Selection): string {
  return 'requirements' in selection
    ? join(RESULTS, `${selection.requirements}.log`)
    : join(RESULTS, `${selection.specVersion}-${selection.scenario}.log`)
}

export function runSuite(
  node22: string,
  url: string,
  selection: Selection,
  outDir: string,
  verbose: boolean,
): Promise<SuiteRun> {
  const log = createWriteStream(logPathOf(selection))
  const chosen =
    'requirements' in selection
      ? ['--requirements', selection.requirements, '--expected-failures', selection.baselinePath]
      : ['--scenario', selection.scenario, '--spec-version', selection.specVersion, '--force']
  const argv = [SUITE_CLI, 'server', '--url', url, ...chosen, '-o', outDir]
  log.write(`$ ${[rel(node22), ...argv.map((a) => (a.startsWith('/') ? rel(a) : a))].join(' ')}\n\n`)
  const started = Date.now()
  const child = spawn(node22, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  const onData = (d: Buffer) => {
    const text = d.toString()
    out += text
    log.write(stripAnsi(text))
    if (verbose) process.stdout.write(text)
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
      if (!verbose && code !== 0 && code !== 1) {
        // Not a verdict: the CLI itself broke. Show its tail.
        console.error(stripAnsi(out).split('\n').slice(-30).join('\n'))
      }
      ok({ exitCode: code ?? (signal ? 128 : 1), seconds: (Date.now() - started) / 1000, verdict })
    })
  })
}
