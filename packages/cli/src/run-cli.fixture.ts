/**
 * @module run-cli.fixture
 * Runs `tessera` from its sources as a real process, the way a person's shell would, and
 * collects what it wrote and how it exited.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const BIN = fileURLToPath(new URL('./bin.ts', import.meta.url))

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

export function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
    })
    child.once('error', reject)
    child.once('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

/**
 * The one line a failed run wrote to stderr (the progress lines of a call left out). Throws,
 * showing all of stderr, when there is not exactly one line or when a stack frame shows.
 */
export function errorLine(run: CliRun): string {
  const lines = run.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('progress '))
  if (lines.length !== 1 || run.stderr.includes('    at '))
    throw new Error(`expected one line on stderr, got ${lines.length}:\n${run.stderr}`)
  return lines[0]!
}
