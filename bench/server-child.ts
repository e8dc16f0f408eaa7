/**
 * A bench server in its own process, as every benchmark starts one: it prints `READY <port>` on
 * stdout once it listens, and what it writes to stderr is quoted when it fails to get there.
 */
import type { ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'

/** The last 4,000 characters `child` wrote to stderr, read as it writes them. */
export function stderrTail(child: ChildProcess): () => string {
  let tail = ''
  child.stderr!.on('data', (d: Buffer) => {
    tail = (tail + d.toString()).slice(-4000)
  })
  return () => tail.trim() || '(no stderr)'
}

/**
 * The port `child` prints as `READY <port>`. It rejects, naming `name` and quoting `tail()`, when
 * the process exits first or prints nothing within `timeoutMs`, and then kills it. Its stdout is
 * read to the end, so a server that keeps printing never blocks on a full pipe.
 */
export function readyPort(
  child: ChildProcess,
  name: string,
  timeoutMs: number,
  tail: () => string,
): Promise<number> {
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      fail(new Error(`${name} printed no READY line within ${timeoutMs / 1000} s\n${tail()}`))
    }, timeoutMs)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      fail(new Error(`${name} exited (${signal ?? `code ${code}`}) before READY:\n${tail()}`))
    })
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const ready = /^READY (\d+)$/.exec(line.trim())
      if (ready === null) return
      clearTimeout(timer)
      ok(Number(ready[1]))
    })
  })
}
