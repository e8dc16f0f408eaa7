/**
 * @module task-store
 * The port every task store implements, and its in-memory implementation. The port is small on
 * purpose: create, read, and replace at a known version (compare-and-set). Everything a task
 * means (leases, answers, cancellation, expiry of a dead worker's task) is decided once, in core,
 * on top of it, so every store behaves alike and the contract suite can check all of them.
 */
import type { TaskRecord } from './task-record.ts'

export interface TaskStore {
  /** Stores a new task (durably, before this resolves); false when its id is taken or the store is full. */
  create(task: TaskRecord): Promise<boolean>
  /** The task; undefined when unknown or past its `expiresAt`. */
  get(id: string): Promise<TaskRecord | undefined>
  /**
   * Replaces the task with `next` (whose version is `version + 1`) only while the stored one is
   * still at `version` and not expired; false otherwise. Atomic: of two writers that read the
   * same version, one wins.
   */
  replace(id: string, version: number, next: TaskRecord): Promise<boolean>
  close(): Promise<void>
}

/** Rejects a `replace` whose next record does not follow the version it replaces. */
export function assertReplacement(id: string, version: number, next: TaskRecord): void {
  if (next.id !== id) throw new TypeError('a task cannot change its id')
  if (next.version !== version + 1) throw new RangeError('the next version of a task must be version + 1')
}

/** Whether a record is past its expiry at `now`. */
export function isExpired(task: Pick<TaskRecord, 'expiresAt'>, now: number): boolean {
  return task.expiresAt !== null && task.expiresAt <= now
}

export interface MemoryTaskStoreOptions {
  /** Tasks kept at most (default 10 000); `create` answers false beyond it. */
  maxTasks?: number
  now?: () => number
}

export function memoryTaskStore(options?: MemoryTaskStoreOptions): TaskStore {
  const max = options?.maxTasks ?? 10_000
  const now = options?.now ?? Date.now
  const tasks = new Map<string, TaskRecord>()
  let closed = false
  const assertOpen = () => {
    if (closed) throw new Error('memory task store is closed')
  }
  const sweep = () => {
    const at = now()
    for (const [id, task] of tasks) if (isExpired(task, at)) tasks.delete(id)
  }
  const live = (id: string): TaskRecord | undefined => {
    const task = tasks.get(id)
    if (task === undefined) return undefined
    if (!isExpired(task, now())) return task
    tasks.delete(id)
    return undefined
  }
  return {
    async create(task) {
      assertOpen()
      if (live(task.id) !== undefined) return false
      if (tasks.size >= max) sweep()
      if (tasks.size >= max) return false
      tasks.set(task.id, structuredClone(task))
      return true
    },
    async get(id) {
      assertOpen()
      const task = live(id)
      return task === undefined ? undefined : structuredClone(task)
    },
    async replace(id, version, next) {
      assertOpen()
      assertReplacement(id, version, next)
      const task = live(id)
      if (task === undefined || task.version !== version) return false
      tasks.set(id, structuredClone(next))
      return true
    },
    async close() {
      closed = true
      tasks.clear()
    },
  }
}
