/**
 * Running a process under valgrind's callgrind and reading what it counted: shared by
 * `bench:instructions` (instructions a request, counting switched on after a warm-up) and
 * `bench:startup --instructions` (instructions from the process's start to its first answer).
 * Each count has a folder of its own for callgrind's dumps and for the pipes `callgrind_control`
 * talks through, so nothing of a count outlives its folder.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface CallgrindOptions {
  /** Count from the first instruction (a start), or only once `callgrind_control -i on` says so. */
  atStart: boolean
  /** One dump per thread, so that the main thread's can be read alone. */
  mainThread: boolean
}

/** Valgrind's arguments before the command it runs, its dumps and pipes in `dir`. */
export function callgrindArgs(dir: string, options: CallgrindOptions): string[] {
  return [
    '--tool=callgrind',
    `--instr-atstart=${options.atStart ? 'yes' : 'no'}`,
    ...(options.mainThread ? ['--separate-threads=yes'] : []),
    `--callgrind-out-file=${join(dir, 'out')}`,
    `--vgdb-prefix=${join(dir, 'vgdb')}`,
  ]
}

/** Runs `callgrind_control` with `args` on the process `pid` counted in `dir`. */
export function controlCallgrind(dir: string, pid: number, ...args: string[]): void {
  const r = spawnSync('callgrind_control', [`--vgdb-prefix=${join(dir, 'vgdb')}`, ...args, String(pid)], {
    encoding: 'utf8',
  })
  if (r.status !== 0) throw new Error(`callgrind_control ${args.join(' ')} failed: ${r.stderr}`)
}

/**
 * The instructions in the first dump of the count in `dir`: the main thread's (valgrind numbers
 * threads in the order they start, and the main thread is the first) or every thread's.
 */
export function dumpedInstructions(dir: string, mainThread: boolean): number {
  const files = mainThread ? [join(dir, 'out.1-01')] : listDumps(dir)
  let total = 0
  for (const file of files) {
    const summary = /^summary: (\d+)$/m.exec(readFileSync(file, 'utf8'))
    if (summary === null) throw new Error(`no callgrind summary in ${file}`)
    total += Number(summary[1])
  }
  return total
}

function listDumps(dir: string): string[] {
  return readdirSync(dir)
    .filter((file) => file.startsWith('out.'))
    .map((file) => join(dir, file))
}

/** Throws unless valgrind is installed. */
export function requireValgrind(): void {
  if (spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).error !== undefined) {
    throw new Error('valgrind is not installed (apt-get install valgrind)')
  }
}
