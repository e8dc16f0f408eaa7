/**
 * @module task-service
 * Tasks of one server over its task store: creating them durably, finding them for their owner
 * only, changing them by compare-and-set, answering their questions, cancelling them, and
 * telling listen streams (on every instance, through the bus) what changed. A working task whose
 * worker's lease ran out is settled by whoever reads it first (run again under its idempotency
 * key, or ended with an outcome that says it is unknown): a dead worker's task never stays
 * `working`, and the late worker, should it wake, can no longer write.
 */

import { sha256Base64url } from '#crypto'
import { TesseraError } from '../../errors.ts'
import type { Logger } from '../../observation/logger.ts'
import type { Observer } from '../../observation/observer.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import { randomId } from '../../security/random.ts'
import { newFence, withTimeout } from '../../security/replay/replay-store.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import { principalKey } from '../handshake/principal.ts'
import type { NotificationBus } from '../notification-bus.ts'
import {
  cancelledByClient,
  detailedTask,
  isTerminal,
  recordBytes,
  type TaskCall,
  type TaskRecord,
  utf8ByteLength,
  withoutInputs,
} from './task-record.ts'
import type { TaskStore } from './task-store.ts'

export interface TaskSettings {
  /** How long a worker's hold on a running task lasts without renewal (default 15 000 ms). */
  leaseMs: number
  /** How long a task is kept after its last change (default one hour); null: never dropped. */
  ttlMs: number | null
  /** The polling interval clients are told (default 1000 ms). */
  pollIntervalMs: number
  /** Bound on every task store call (default min(5000, leaseMs / 3)). */
  storeTimeoutMs: number
  /** The most tasks one principal may have kept at once (default 1000). */
  maxPerPrincipal: number
  /** The largest record, in bytes of JSON without its result (default 65 536). */
  maxRecordBytes: number
}

/** The one answer for an id that is unknown, expired or someone else's. */
export const UNKNOWN_TASK_MESSAGE = 'Invalid params: unknown task.'

const STORE_UNAVAILABLE = 'The task store is unavailable; retry later.'
const OUTCOME_UNKNOWN =
  'The worker running this task stopped before it reported an outcome: whether the work was done is unknown. Check its effects before calling again.'
/** `_meta` key of a task result whose outcome is unknown. */
export const TASK_OUTCOME_META = 'dev.tessera/outcome'
/** Runs again of one task after its worker died, beyond which its outcome is unknown. */
const MAX_RERUNS = 3

/** What the server tells the task service about running a dead worker's task again. */
export interface OrphanRuns {
  /** Whether this server can run the task's tool again on its stored arguments. */
  runnable(task: TaskRecord): boolean
  /** Whether `auth` holds the scopes of what the task runs. */
  permitted(task: TaskRecord, auth: AuthInfo | undefined): boolean
  /** Runs the task (leased to this process) from the top, as `auth`. */
  rerun(task: TaskRecord, auth: AuthInfo | undefined): void
}

const MUTATE_ATTEMPTS = 8
/** The largest detailed task (UTF-8 bytes) sent along with its change event. */
const INLINE_TASK_BYTES = 4096

/** What becomes of a dead worker's task on a read: run again, ended as unknown, or left for a reader who may run it. */
type OrphanVerdict = 'rerun' | 'unknown' | 'later'

export class TaskService {
  readonly settings: TaskSettings
  readonly #store: TaskStore
  readonly #bus: NotificationBus
  readonly #logger: Logger
  /** The runs this process holds, by task id: how to stop each, and when it has ended. */
  readonly #running = new Map<string, { stop: (reason: string) => void; ended: Promise<void> }>()
  #unsubscribe: (() => void) | undefined
  #orphans: OrphanRuns | undefined

  readonly #observer: Observer

  constructor(
    store: TaskStore,
    bus: NotificationBus,
    logger: Logger,
    settings: TaskSettings,
    observer: Observer,
  ) {
    this.#store = store
    this.#bus = bus
    this.#logger = logger
    this.settings = settings
    this.#observer = observer
  }

  /** The owner key of a caller, or undefined when tasks cannot be bound to it (no subject). */
  ownerOf(auth: AuthInfo | undefined): string | undefined {
    return principalKey(auth)
  }

  /**
   * A new task's id: 192 random bits, or, for the task of a single-use answer, derived from that
   * answer's nonce, so a duplicate of the answer names the same task before it is even stored.
   */
  newId(nonce?: string): string {
    if (nonce === undefined) return randomId(24)
    return sha256Base64url(`tessera/task\0${nonce}`).slice(0, 32)
  }

  /** A working task, leased to this process from now. */
  newRecord(init: {
    id: string
    owner: string
    call: TaskCall
    ttlMs?: number | null
    pollIntervalMs?: number
  }): TaskRecord {
    const now = Date.now()
    const ttlMs = init.ttlMs === undefined ? this.settings.ttlMs : init.ttlMs
    const lease = { fence: newFence(), until: now + this.settings.leaseMs }
    return {
      id: init.id,
      version: 1,
      owner: init.owner,
      status: 'working',
      createdAt: now,
      updatedAt: now,
      ttlMs,
      pollIntervalMs: init.pollIntervalMs ?? this.settings.pollIntervalMs,
      expiresAt: expiry(now, ttlMs, lease.until),
      lease,
      call: init.call,
      usedKeys: [],
    }
  }

  /**
   * Stores a new task; resolves once a `tasks/get` on any instance would find it. A task over
   * the record bound, or of a principal that keeps all the tasks it may, is refused with an
   * error for the client; a store that cannot take it is unavailable.
   */
  async create(task: TaskRecord): Promise<void> {
    this.assertBounded(task)
    const limits = { maxPerOwner: this.settings.maxPerPrincipal }
    const created = await this.#call('create', () => this.#store.create(task, limits))
    if (created === 'owner-full') {
      this.#logger.warn({ event: 'task_refused', reason: 'owner_full', tool: task.call.tool }, 'task refused')
      throw new TesseraError(
        'TESSERA_TOO_MANY_TASKS',
        `Too many tasks: a principal may keep ${this.settings.maxPerPrincipal} at once, and a task counts until it expires; retry later.`,
      )
    }
    if (created !== 'created') throw this.#unavailable('create', `the store refused the task (${created})`)
    this.#publish(task, true)
  }

  /** Throws -32602 when `task` is larger than a record may be (its result left out). */
  assertBounded(task: TaskRecord): void {
    const bytes = recordBytes(task)
    if (bytes <= this.settings.maxRecordBytes) return
    throw new TesseraError(
      'TESSERA_INVALID_PARAMS',
      `Invalid params: the task would keep ${bytes} bytes of arguments, answers and questions; at most ${this.settings.maxRecordBytes} are kept.`,
    )
  }

  /** The caller's task: unknown, expired and foreign ids all get the same -32602. */
  async find(id: unknown, auth: AuthInfo | undefined): Promise<TaskRecord> {
    if (typeof id !== 'string' || id === '' || id.length > 128) throw unknownTask()
    const owner = this.ownerOf(auth)
    if (owner === undefined) throw unknownTask()
    const task = await this.read(id, auth, owner)
    if (task === undefined || task.owner !== owner) throw unknownTask()
    return task
  }

  /** Sets how this server runs again the task of a worker that died (see `read`). */
  rerunOrphansWith(orphans: OrphanRuns): void {
    this.#orphans = orphans
  }

  /**
   * The task as it stands. A working task whose worker's lease ran out is first given an ending
   * that tells the truth: a task acting on a single-use answer runs again from the top, here,
   * under the answer's idempotency key (a handler that stored the key with its work finds it and
   * reports it; one that had not got that far acts now, once); any other ends with an outcome
   * that says it is unknown, never `failed` for work that may have been done, and never run twice.
   * `auth` is the reader's: a run again happens for the task's owner holding the tool's scopes.
   */
  async read(
    id: string,
    auth?: AuthInfo | undefined,
    owner: string | undefined = this.ownerOf(auth),
  ): Promise<TaskRecord | undefined> {
    const task = await this.#call('get', () => this.#store.get(id))
    if (task === undefined || !leaseRanOut(task)) return task
    const verdict = this.#orphanVerdict(task, auth, owner)
    if (verdict === 'later') return task
    let fence: string | undefined
    const next = await this.mutate(id, (current) => {
      if (!leaseRanOut(current)) return current
      if (verdict === 'unknown') return outcomeUnknown(current)
      const lease = { fence: newFence(), until: Date.now() + this.settings.leaseMs }
      fence = lease.fence
      const reruns = (current.call.reruns ?? 0) + 1
      return { ...current, lease, call: { ...current.call, reruns } }
    })
    if (fence !== undefined && next?.lease?.fence === fence) {
      this.#logger.warn(
        { event: 'task_rerun', taskId: id, tool: next.call.tool, reruns: next.call.reruns },
        'the worker running this task died; it runs again under its idempotency key',
      )
      this.#orphans?.rerun(next, auth)
    }
    return next
  }

  #orphanVerdict(task: TaskRecord, auth: AuthInfo | undefined, owner: string | undefined): OrphanVerdict {
    // A task the client asked to stop is never started again: what its worker did is unknown.
    if (task.cancelRequested === true) return 'unknown'
    if (task.call.idempotencyKey === undefined || (task.call.reruns ?? 0) >= MAX_RERUNS) return 'unknown'
    const orphans = this.#orphans
    if (orphans === undefined || !orphans.runnable(task)) return 'unknown'
    return owner === task.owner && orphans.permitted(task, auth) ? 'rerun' : 'later'
  }

  /**
   * Applies `change` by compare-and-set, reading again when another writer got there first.
   * `change` returns the next record, or the record it was given to leave it as it is; the
   * result is the record as stored (undefined when the task is gone). A `quiet` change (a lease
   * renewal) is no change a client can see: `lastUpdatedAt` stays and nothing is published.
   */
  async mutate(
    id: string,
    change: (task: TaskRecord) => TaskRecord,
    options: { quiet?: boolean } = {},
  ): Promise<TaskRecord | undefined> {
    for (let attempt = 0; attempt < MUTATE_ATTEMPTS; attempt++) {
      const current = await this.#call('get', () => this.#store.get(id))
      if (current === undefined) return undefined
      const next = change(current)
      if (next === current) return current
      const updatedAt = options.quiet ? current.updatedAt : Date.now()
      const written: TaskRecord = {
        ...next,
        version: current.version + 1,
        updatedAt,
        expiresAt: expiry(updatedAt, next.ttlMs, next.lease?.until),
      }
      if (await this.#call('replace', () => this.#store.replace(id, current.version, written))) {
        if (!options.quiet) this.#publish(written, false)
        return written
      }
    }
    throw this.#unavailable('replace', `the task kept changing under ${MUTATE_ATTEMPTS} attempts`)
  }

  /**
   * Announces the task's new state and tells listen streams everywhere what the task now is. A
   * large task travels as its id only (a bus may carry a few kilobytes per event): the delivering
   * instance reads it from the store.
   */
  #publish(task: TaskRecord, created: boolean): void {
    if (this.#observer.wants('task')) {
      const { id: taskId, status, statusMessage } = task
      this.#observer.announce({
        step: 'task',
        taskId,
        tool: task.call.tool,
        status,
        created,
        ...(statusMessage ? { statusMessage } : {}),
      })
    }
    const wire = detailedTask(task)
    const small = utf8ByteLength(JSON.stringify(wire)) <= INLINE_TASK_BYTES
    this.#bus.publish({
      type: 'task-changed',
      taskId: task.id,
      owner: task.owner,
      ...(small ? { task: wire } : {}),
    })
  }

  /** Resolves once the task events published so far have left this instance (see `NotificationBus.settled`). */
  async published(): Promise<void> {
    await this.#bus.settled?.()
  }

  /**
   * Asks for a task to stop. A task waiting for input ends cancelled at once; a running one is
   * marked, and its worker (on whichever instance) is told to abort; a terminal one stays as it is.
   */
  async cancel(task: TaskRecord): Promise<void> {
    if (isTerminal(task)) return
    const next = await this.mutate(task.id, (current) => {
      if (isTerminal(current)) return current
      if (current.status === 'input_required') return cancelledByClient(current)
      return current.cancelRequested ? current : { ...current, cancelRequested: true }
    })
    if (next?.status === 'working') this.#bus.publish({ type: 'task-cancel', taskId: task.id })
  }

  /**
   * Registers a run of this process: `stop` aborts it, `ended` settles once its outcome is
   * written. Returns the function that removes it.
   */
  running(id: string, stop: (reason: string) => void, ended: Promise<void>): () => void {
    this.#unsubscribe ??= this.#bus.subscribe((event) => {
      if (event.type === 'task-cancel') this.#running.get(event.taskId)?.stop('cancelled by the client')
    })
    const entry = { stop, ended }
    this.#running.set(id, entry)
    return () => {
      if (this.#running.get(id) === entry) this.#running.delete(id)
    }
  }

  /**
   * Stops every run of this process (a graceful shutdown) and waits, up to `waitMs`, for their
   * outcomes to be written: a task the server stopped ends failed, saying so, instead of staying
   * working until its lease runs out.
   */
  async stopAll(reason: string, waitMs: number): Promise<void> {
    const runs = [...this.#running.values()]
    if (runs.length === 0) return
    for (const run of runs) run.stop(reason)
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs)
    })
    await Promise.race([Promise.all(runs.map((run) => run.ended)), timeout])
    clearTimeout(timer)
  }

  /** Renews a worker's lease; false when the task is no longer its to run. Cancellation is reported. */
  async renew(id: string, fence: string): Promise<{ held: boolean; cancelRequested: boolean }> {
    let held = false
    const task = await this.mutate(
      id,
      (current) => {
        held = current.status === 'working' && current.lease?.fence === fence
        if (!held) return current
        return { ...current, lease: { fence, until: Date.now() + this.settings.leaseMs } }
      },
      { quiet: true },
    )
    return { held: held && task !== undefined, cancelRequested: task?.cancelRequested === true }
  }

  /**
   * Writes what a worker's run ended with, only while the task is still that worker's: a
   * late worker whose task was failed or cancelled meanwhile changes nothing.
   */
  async settle(
    id: string,
    fence: string,
    end: (current: TaskRecord) => TaskRecord,
  ): Promise<TaskRecord | undefined> {
    let own = false
    const task = await this.mutate(id, (current) => {
      own = current.status === 'working' && current.lease?.fence === fence
      if (!own) return current
      const { lease: _, ...rest } = end(current)
      return rest
    })
    return own ? task : undefined
  }

  close(): void {
    this.#unsubscribe?.()
    this.#unsubscribe = undefined
  }

  get logger(): Logger {
    return this.#logger
  }

  #call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    const started = performance.now()
    return withTimeout(
      `task store ${operation}`,
      Promise.resolve().then(run),
      this.settings.storeTimeoutMs,
    ).then(
      (value) => {
        this.#storeCall(operation, started, true)
        return value
      },
      (error: unknown) => {
        this.#storeCall(operation, started, false)
        if (error instanceof TesseraError) throw error
        throw this.#unavailable(operation, error instanceof Error ? error.message : String(error))
      },
    )
  }

  #storeCall(operation: string, started: number, ok: boolean): void {
    if (!this.#observer.wants('store-call')) return
    const ms = performance.now() - started
    this.#observer.announce({ step: 'store-call', store: 'tasks', operation, ms, ok })
  }

  #unavailable(operation: string, detail: string): TesseraError {
    this.#logger.error({ event: 'task_store_error', operation, detail }, 'task store call failed')
    return new TesseraError('TESSERA_STORE_UNAVAILABLE', STORE_UNAVAILABLE)
  }
}

export function unknownTask(): TesseraError {
  return new TesseraError('TESSERA_INVALID_PARAMS', UNKNOWN_TASK_MESSAGE)
}

/** When a record may be forgotten: ttl after its last change, and never while its lease holds. */
function expiry(now: number, ttlMs: number | null, leaseUntil: number | undefined): number | null {
  if (ttlMs === null) return null
  return Math.max(now + ttlMs, leaseUntil ?? 0)
}

function leaseRanOut(task: TaskRecord): boolean {
  return task.status === 'working' && task.lease !== undefined && task.lease.until < Date.now()
}

/**
 * The ending of a dead worker's task that cannot run again: completed, with an error result that
 * says the outcome is unknown (the work may have been done) and a `_meta` flag a program can read.
 */
function outcomeUnknown(task: TaskRecord): TaskRecord {
  const { lease: _, ...rest } = withoutInputs(task)
  const result: JsonObject = {
    content: [{ type: 'text', text: OUTCOME_UNKNOWN }],
    isError: true,
    _meta: { [TASK_OUTCOME_META]: 'unknown' },
  }
  return { ...rest, status: 'completed', result }
}
