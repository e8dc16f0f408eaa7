/**
 * @module check-packages
 * `npm run check:packages`: every publishable package passes publint (package.json, exports,
 * files) and arethetypeswrong (its types resolve like its JavaScript). The packages are ESM only,
 * so attw runs with the `esm-only` profile: `require` and the pre-exports `node10` resolution are
 * not supported, by design. Needs `npm run build` first. Exits 1 on the first problem, with the
 * tools' own output.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { WORKSPACE_ROOT } from '../workspace-sources.ts'

const BIN = join(WORKSPACE_ROOT, 'node_modules', '.bin')

function publishable(): string[] {
  return readdirSync(join(WORKSPACE_ROOT, 'packages'))
    .map((dir) => join(WORKSPACE_ROOT, 'packages', dir))
    .filter((dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).private !== true)
    .sort()
}

function run(label: string, command: string, args: string[], cwd: string): boolean {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' })
  const output = `${result.stdout}${result.stderr}`.trim()
  const ok = result.status === 0
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${label}\n`)
  if (!ok || process.argv.includes('--verbose')) process.stdout.write(`${output}\n`)
  return ok
}

let failed = 0
for (const dir of publishable()) {
  const name = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name as string
  if (!run(`publint ${name}`, join(BIN, 'publint'), ['--strict'], dir)) failed++
  if (
    !run(
      `attw ${name}`,
      join(BIN, 'attw'),
      ['--pack', '.', '--profile', 'esm-only', '--format', 'ascii'],
      dir,
    )
  )
    failed++
}
if (failed > 0) {
  process.stdout.write(`${failed} package check(s) failed\n`)
  process.exit(1)
}
