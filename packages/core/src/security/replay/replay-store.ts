/**
 * @module replay-store
 * The port every single-use record store implements. A record is keyed by a nonce
 * from a sealed requestState and moves in_progress → done, or is deleted on failure.
 * A lease (renewed while work runs) frees the key of a worker that died, and a
 * random fence per claim keeps a late executor from touching a newer claim's record.
 */

import { TesseraError } from '../../errors.ts'
import { backgroundTimeout } from '../../timers.ts'
import { randomId } from '../random.ts'

/**
 * Answer to a claim: the caller runs the work only on `claimed`. Nothing is written on `late`
 * (the claim reached the store after its deadline: the caller has given up on it) nor on `stale`
 * (the store's epoch is not the one the claim names: the store lost its records since).
 */
export type ClaimResult =
  | { kind: 'claimed'; fence: string; previous?: 'abandoned' }
  | { kind: 'in_progress'; what: string }
  | { kind: 'done'; what: string; outcome: string }
  | { kind: 'late' }
  | { kind: 'stale' }

/** What a claim is conditional on, checked inside its atomic step. */
export interface ClaimConditions {
  /**
   * When the caller stops waiting (epoch ms): held against the store's clock, so a claim that was
   * queued behind a stalled store and arrives after it writes nothing and answers `late`,
   * instead of leaving an in-progress record no worker runs.
   */
  deadline?: number
  /**
   * The store's epoch when the state being answered was sealed (see `epoch()`): a store whose
   * epoch differs has lost the records of that time, so it cannot tell a replay from a first
   * use, and answers `stale`.
   */
  epoch?: string
}

/** What a record says, for diagnostics and tests; `abandoned` is an in-progress record whose lease ran out. */
export interface ReplayRecordView {
  status: 'in_progress' | 'done' | 'abandoned'
  what: string
  outcome?: string
}

/**
 * The port of single-use records: where the guard claims a key before a single-use action runs,
 * keeps its lease, and records its outcome, so a replay on any instance is answered from the
 * record instead of running the action twice. Every store package implements it.
 */
export interface ReplayStore {
  /**
   * Atomically: if no record, or a record whose lease expired while in progress, claim it
   * (status in_progress, new random fence, lease until now+leaseMs, record kept until
   * now+max(ttlMs, leaseMs)). A record past its ttl counts as no record. The conditions are
   * checked first, in the same atomic step.
   */
  claim(
    key: string,
    what: string,
    leaseMs: number,
    ttlMs: number,
    conditions?: ClaimConditions,
  ): Promise<ClaimResult>
  /**
   * The store's epoch: a random id it keeps beside its records, made when missing (atomically, so
   * every instance sharing the store reads the same one). A store that loses its records loses
   * its epoch with them (Redis restarted empty or flushed, a new SQLite file, a memory store in a
   * new process), and the next call makes a new one, so states sealed before are refused.
   */
  epoch(): Promise<string>
  /** Extend the lease if the fence still holds; false if it was lost. */
  renew(key: string, fence: string, leaseMs: number): Promise<boolean>
  /** Mark done with the outcome (kept until ttl from the claim, at least) if the fence still holds; false if lost. */
  complete(key: string, fence: string, outcome: string): Promise<boolean>
  /** Delete the record if the fence still holds (failure path: an honest retry may run). */
  release(key: string, fence: string): Promise<void>
  /** Read-only, for diagnostics and tests. */
  inspect(key: string): Promise<ReplayRecordView | undefined>
  /** Releases what the store holds (a connection, a timer); the server calls it when it closes. */
  close(): Promise<void>
}

/**
 * The store could not be reached or did not answer in time. The guard never runs work
 * when a claim ends this way: without a record, at-most-once cannot be promised. The message is
 * the one a client reads; what failed is in `detail`, for logs only.
 */
export class SingleUseStoreError extends TesseraError {
  override readonly name = 'SingleUseStoreError'
  /** What failed (operation and cause), for logs; never on the wire. */
  readonly detail: string

  constructor(detail: string, options?: { cause?: unknown }) {
    super('TESSERA_STORE_UNAVAILABLE', STORE_UNAVAILABLE_MESSAGE, undefined, options)
    this.detail = detail
  }
}

const STORE_UNAVAILABLE_MESSAGE = 'The single-use store is unavailable; nothing was done. Retry later.'

/** Wraps any failure of a store call, keeping an existing SingleUseStoreError as is. */
export function toStoreError(operation: string, cause: unknown): SingleUseStoreError {
  if (cause instanceof SingleUseStoreError) return cause
  const reason = cause instanceof Error ? cause.message : String(cause)
  return new SingleUseStoreError(`single-use store ${operation} failed: ${reason}`, { cause })
}

/** Rejects with an Error naming `operation` when `promise` does not settle within `ms`. */
export function withTimeout<T>(operation: string, promise: Promise<T>, ms: number): Promise<T> {
  return settleWithin(operation, promise, ms, (error) => error)
}

/** Rejects with a SingleUseStoreError when `promise` fails or does not settle within `ms`. */
export function withStoreTimeout<T>(operation: string, promise: Promise<T>, ms: number): Promise<T> {
  return settleWithin(operation, promise, ms, (error) => toStoreError(operation, error))
}

// One promise and one timer per call: every store call of a guarded answer passes through here.
function settleWithin<T>(
  operation: string,
  promise: Promise<T>,
  ms: number,
  failure: (error: unknown) => unknown,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = backgroundTimeout(
      () => reject(failure(new Error(`${operation} timed out after ${ms} ms`))),
      ms,
    )
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(failure(error))
      },
    )
  })
}

/** Rejects bad arguments early, the same way in every store. */
export function assertClaimArguments(
  key: string,
  leaseMs: number,
  ttlMs: number,
  conditions?: ClaimConditions,
): void {
  if (typeof key !== 'string' || key.length === 0)
    throw new TypeError('single-use key must be a non-empty string')
  if (!Number.isFinite(leaseMs) || leaseMs <= 0) throw new RangeError('leaseMs must be a positive number')
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new RangeError('ttlMs must be a positive number')
  const deadline = conditions?.deadline
  if (deadline !== undefined && !Number.isFinite(deadline)) throw new RangeError('deadline must be a number')
  const epoch = conditions?.epoch
  if (epoch !== undefined && (typeof epoch !== 'string' || epoch.length === 0 || epoch.length > 64)) {
    throw new TypeError('epoch must be a string of 1 to 64 characters')
  }
}

/** A new epoch: 96 random bits. */
export function newEpoch(): string {
  return randomId(12)
}

/** Most of a timeout a claim's deadline comes before it (a quarter of it when shorter). */
const MAX_DEADLINE_MARGIN_MS = 250

/**
 * The deadline to hand a store for a claim whose caller gives up `timeoutMs` from now (or at
 * `deadline`, when that is sooner): a margin before it, so a store whose clock runs a little
 * behind this host's still refuses a claim that arrives after the caller answered.
 */
export function claimDeadline(timeoutMs: number, deadline?: number): number {
  const margin = Math.min(MAX_DEADLINE_MARGIN_MS, Math.floor(timeoutMs / 4))
  const own = Date.now() + timeoutMs - margin
  return deadline === undefined ? own : Math.min(deadline, own)
}

/** Whether a claim checked at `now` is past its `deadline` (none: never). */
export function pastDeadline(deadline: number | undefined, now: number): boolean {
  return deadline !== undefined && now > deadline
}

/** A fresh fence: 128 random bits, so a stale executor cannot guess a newer claim's fence. */
export function newFence(): string {
  return randomId(16)
}
