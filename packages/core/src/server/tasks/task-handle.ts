/**
 * @module task-handle
 * `ctx.task`: what a handler running as a task can do with it. Status messages and progress go
 * to the task record (seen by `tasks/get` and `notifications/tasks`), written one at a time and
 * coalesced, so a handler reporting in a tight loop costs at most one write in flight. The signal
 * aborts when the task is cancelled or its worker lost the lease.
 */

/** What a status report changes. */
export interface TaskReport {
  statusMessage?: string
  progress?: { progress: number; total?: number }
}

/**
 * `ctx.task`: the task a handler runs as. Its status messages and progress are written to the
 * task record, one write at a time and coalesced; its `signal` aborts when the task is cancelled
 * or its worker lost the lease.
 */
export class TaskHandle {
  /** The task's id, as the client polls it. */
  readonly id: string
  /** Aborts when the task is cancelled or its worker lost the lease. */
  readonly signal: AbortSignal
  readonly #write: (report: TaskReport) => Promise<void>
  #pending: TaskReport | undefined
  #flushing: Promise<void> | undefined
  #lastProgress = Number.NEGATIVE_INFINITY

  constructor(id: string, signal: AbortSignal, write: (report: TaskReport) => Promise<void>) {
    this.id = id
    this.signal = signal
    this.#write = write
  }

  /** Sets the task's `statusMessage`: what it is doing now, for a person to read. */
  status(message: string): void {
    if (typeof message !== 'string') throw new TypeError('ctx.task.status() needs a string message')
    this.#queue({ statusMessage: message.slice(0, 1000) })
  }

  /** Reports progress (values that do not increase are dropped); `message` becomes the status message. */
  progress(progress: number, total?: number, message?: string): void {
    if (!Number.isFinite(progress) || !(progress > this.#lastProgress)) return
    this.#lastProgress = progress
    const report: TaskReport = { progress: total === undefined ? { progress } : { progress, total } }
    if (message !== undefined) report.statusMessage = String(message).slice(0, 1000)
    this.#queue(report)
  }

  /** Resolves once every report made so far is written (or given up on). */
  async flushed(): Promise<void> {
    while (this.#flushing !== undefined) await this.#flushing
  }

  #queue(report: TaskReport): void {
    this.#pending = { ...this.#pending, ...report }
    this.#flushing ??= this.#flush()
  }

  async #flush(): Promise<void> {
    try {
      while (this.#pending !== undefined) {
        const report = this.#pending
        this.#pending = undefined
        // A report that cannot be written is dropped: reporting must never fail the work.
        await this.#write(report).catch(() => {})
      }
    } finally {
      this.#flushing = undefined
    }
  }
}
