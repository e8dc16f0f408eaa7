/**
 * @module task-store
 * The port every task store implements, and its in-memory implementation. The port is small on
 * purpose: create (within an owner's bound), read, and replace at a known version
 * (compare-and-set). Everything a task
 * means (leases, answers, cancellation, expiry of a dead worker's task) is decided once, in core,
 * on top of it, so every store behaves alike and the contract suite can check all of them.
 */
import { assertKnownOptions, type OptionNames } from '../../option-checks.ts'
import type { TaskRecord } from './task-record.ts'

/** How a `create` ended: stored, or why not. */
export type TaskCreation = 'created' | 'taken' | 'full' | 'owner-full'

/** The bounds `TaskStore.create` checks in the same atomic step as it stores the task. */
export interface TaskLimits {
  /**
   * The most unexpired tasks one owner may have, the new one included: a create beyond it is
   * `'owner-full'`. Counted and inserted in one atomic step, so workers racing for an owner's
   * last place never exceed it.
   */
  maxPerOwner?: number
}

/**
 * The port every task store implements (the `tasks` of `Stores`): create within an owner's
 * bound, read, and replace at a known version. What a task means is decided in core on top of it,
 * so every store behaves alike.
 */
export interface TaskStore {
  /**
   * Stores a new task (durably, before this resolves): `'created'`, or `'taken'` (its id is
   * taken), `'full'` (the store holds all it may), `'owner-full'` (its owner is at
   * `limits.maxPerOwner`).
   */
  create(task: TaskRecord, limits?: TaskLimits): Promise<TaskCreation>
  /** The task; undefined when unknown or past its `expiresAt`. */
  get(id: string): Promise<TaskRecord | undefined>
  /**
   * Replaces the task with `next` (whose version is `version + 1`) only while the stored one is
   * still at `version` and not expired; false otherwise. Atomic: of two writers that read the
   * same version, one wins.
   */
  replace(id: string, version: number, next: TaskRecord): Promise<boolean>
  /** Releases what the store holds; the server calls it once, from `close()`. */
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

/** The bound and the clock of `memoryTaskStore`. */
export interface MemoryTaskStoreOptions {
  /** Tasks kept at most (default 10 000); `create` answers `'full'` beyond it. */
  maxTasks?: number
  /** The clock, in epoch milliseconds (default `Date.now`); tests fix it. */
  now?: () => number
}

const MEMORY_TASK_STORE_OPTIONS = {
  maxTasks: true,
  now: true,
} as const satisfies OptionNames<MemoryTaskStoreOptions>

/**
 * The task store of one process: tasks in its memory, bounded in count, the expired ones swept
 * when it is full, all lost on a restart. A server uses it when `stores.tasks` is not given.
 */
export function memoryTaskStore(options?: MemoryTaskStoreOptions): TaskStore {
  if (options !== undefined) assertKnownOptions(options, MEMORY_TASK_STORE_OPTIONS, 'memoryTaskStore')
  const max = options?.maxTasks ?? 10_000
  const now = options?.now ?? Date.now
  const tasks = new Map<string, TaskRecord>()
  const byOwner = new Map<string, Set<string>>()
  let closed = false
  const assertOpen = () => {
    if (closed) throw new Error('memory task store is closed')
  }
  const forget = (task: TaskRecord) => {
    tasks.delete(task.id)
    const owned = byOwner.get(task.owner)
    owned?.delete(task.id)
    if (owned?.size === 0) byOwner.delete(task.owner)
  }
  const sweep = () => {
    const at = now()
    for (const task of tasks.values()) if (isExpired(task, at)) forget(task)
  }
  const live = (id: string): TaskRecord | undefined => {
    const task = tasks.get(id)
    if (task === undefined) return undefined
    if (!isExpired(task, now())) return task
    forget(task)
    return undefined
  }
  const ownedCount = (owner: string): number => {
    const ids = byOwner.get(owner)
    if (ids === undefined) return 0
    for (const id of [...ids]) live(id)
    return byOwner.get(owner)?.size ?? 0
  }
  return {
    async create(task, limits) {
      assertOpen()
      if (live(task.id) !== undefined) return 'taken'
      if (limits?.maxPerOwner !== undefined && ownedCount(task.owner) >= limits.maxPerOwner)
        return 'owner-full'
      if (tasks.size >= max) sweep()
      if (tasks.size >= max) return 'full'
      tasks.set(task.id, structuredClone(task))
      const owned = byOwner.get(task.owner) ?? new Set<string>()
      owned.add(task.id)
      byOwner.set(task.owner, owned)
      return 'created'
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
      byOwner.clear()
    },
  }
}
