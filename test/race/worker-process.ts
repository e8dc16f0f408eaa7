/**
 * @module worker-process
 * One worker process of a race test, spawned with `node --import tsx <script> <config JSON>`: it
 * takes commands as JSON lines on stdin and reports as JSON lines on stdout; a `fatal` report
 * fails whatever the test waits for.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'

/** A report of a worker: its type, its process id and what else it says. */
export type WorkerMessage = Record<string, unknown> & { type: string; pid: number }

/** One worker process and the JSON lines it reports. */
export class WorkerProcess {
  readonly child: ChildProcessWithoutNullStreams
  private readonly inbox: WorkerMessage[] = []
  private readonly waiters: (() => void)[] = []
  private stderr = ''
  readonly exited: Promise<NodeJS.Signals | number | null>

  constructor(script: string, config: unknown) {
    this.child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(config)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString()
    })
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.inbox.push(JSON.parse(line) as WorkerMessage)
      for (const wake of this.waiters.splice(0)) wake()
    })
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve(signal ?? code)))
  }

  /** The next report of `type`, in the order reported. */
  async next(type: string, timeoutMs = 10_000): Promise<WorkerMessage> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const index = this.inbox.findIndex((m) => m.type === type || m.type === 'fatal')
      if (index >= 0) {
        const [message] = this.inbox.splice(index, 1)
        if (message!.type === 'fatal') throw new Error(`worker failed: ${String(message!['message'])}`)
        return message!
      }
      if (Date.now() > deadline)
        throw new Error(`no "${type}" from worker ${this.child.pid}; stderr: ${this.stderr}`)
      await Promise.race([new Promise<void>((wake) => this.waiters.push(wake)), sleep(100)])
    }
  }

  send(command: object): void {
    this.child.stdin.write(`${JSON.stringify(command)}\n`)
  }

  /** Ends its input and waits for it to exit, killing it after 5 s. */
  async stop(): Promise<void> {
    this.child.stdin.end()
    const done = await Promise.race([this.exited, sleep(5_000).then(() => 'timeout' as const)])
    if (done === 'timeout') this.child.kill('SIGKILL')
  }
}
