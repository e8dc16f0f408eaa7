/**
 * @module logged-process
 * Runs a TypeScript entry script as a real process (through tsx) and watches its stderr: the JSON
 * log lines (stderr is not a terminal here) say when it is ready and what it did.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { createServer } from 'node:net'

export interface LogLine {
  level: number
  msg?: string
  event?: string
  pid?: number
  [key: string]: unknown
}

export class LoggedProcess {
  readonly child: ChildProcessWithoutNullStreams
  readonly logs: LogLine[] = []
  stderr = ''
  readonly exited: Promise<number | null>
  private readonly waiters = new Set<() => void>()

  constructor(script: string, args: string[], env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let pending = ''
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString()
      pending += chunk.toString()
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) {
        try {
          this.logs.push(JSON.parse(line) as LogLine)
        } catch {
          // Not a log line (a Node warning, say): kept in `stderr` only.
        }
      }
      for (const wake of this.waiters) wake()
    })
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)))
  }

  /** Resolves with the first log line whose event is `event`; rejects on exit or timeout. */
  waitForEvent(event: string, timeoutMs = 20_000): Promise<LogLine> {
    return this.waitFor(() => this.logs.find((l) => l.event === event), `"${event}" log line`, timeoutMs)
  }

  /** Resolves with the first match of `pattern` in stderr (plain text, not a log line); rejects on exit or timeout. */
  waitForOutput(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
    return this.waitFor(() => pattern.exec(this.stderr) ?? undefined, `${pattern} on stderr`, timeoutMs)
  }

  private async waitFor<T>(find: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs
    let exited = false
    void this.exited.then(() => {
      exited = true
    })
    for (;;) {
      const found = find()
      if (found !== undefined) return found
      if (exited || Date.now() > deadline) {
        throw new Error(`no ${what} (${exited ? 'process exited' : 'timed out'}); stderr:\n${this.stderr}`)
      }
      await new Promise<void>((wake) => {
        const done = () => {
          this.waiters.delete(done)
          clearTimeout(timer)
          wake()
        }
        const timer = setTimeout(done, 100)
        this.waiters.add(done)
      })
    }
  }

  /** SIGTERM, then the exit code (SIGKILL after `graceMs`). */
  async stop(graceMs = 10_000): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode
    this.child.kill('SIGTERM')
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs)
    const code = await this.exited
    clearTimeout(timer)
    return code
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}
