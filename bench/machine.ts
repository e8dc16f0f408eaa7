/**
 * What every benchmark needs of the machine: CPU pinning (the server on CPU 0, the load generator
 * on CPU 1, when `taskset` is there and there are two CPUs) and a process's CPU time and memory
 * from /proc.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import os from 'node:os'

/** Whether processes can be pinned here. */
export const canPin =
  os.availableParallelism() >= 2 && spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0

/** Pins this process (the load generator, all its threads) to CPU 1; false when it could not. */
export function pinLoadGenerator(): boolean {
  if (!canPin) return false
  return spawnSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' }).status === 0
}

/** `argv` run on CPU 0 when `pin`, as is otherwise. */
export function onServerCpu(argv: string[], pin = canPin): string[] {
  return pin ? ['taskset', '-c', '0', ...argv] : argv
}

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100

/** CPU seconds used so far by a process (all threads), or undefined where /proc is missing. */
export function processCpuSeconds(pid: number | undefined): number | undefined {
  const times = processCpuTimes(pid)
  return times === undefined ? undefined : times.user + times.system
}

/**
 * CPU seconds used so far by a process (all threads), in user space and in the kernel apart, or
 * undefined where /proc is missing. The kernel's share of a request is its reads and writes, and
 * what waking the load generator's thread costs the write that does it.
 */
export function processCpuTimes(pid: number | undefined): { user: number; system: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { user: Number(fields[11]) / CLK_TCK, system: Number(fields[12]) / CLK_TCK }
  } catch {
    return undefined
  }
}

/** A process's resident memory in MiB, or undefined where /proc is missing. */
export function processRssMiB(pid: number | undefined): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb === undefined ? undefined : Number(kb) / 1024
  } catch {
    return undefined
  }
}

/** The processes `pid` forked, and theirs, from /proc (none where it is missing). */
export function descendants(pid: number): number[] {
  let children: number[]
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number)
  } catch {
    return []
  }
  return children.flatMap((child) => [child, ...descendants(child)])
}
