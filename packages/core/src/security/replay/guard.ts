/**
 * @module guard
 * Runs a destructive action at most once per nonce. The guard owns the record: it claims
 * before the work (so a duplicate gets an immediate answer, never a second run), keeps the
 * lease alive while the work runs (so a long action does not outlive its own lock), records
 * the outcome on success (so an honest network retry hears what was accepted) and deletes
 * the record on failure (so that retry may run).
 */
import { TesseraError } from '../../errors.ts'
import { assertKnownOptions, type OptionNames } from '../../option-checks.ts'
import { backgroundTimeout } from '../../timers.ts'
import { type Lease as KeptLease, keepLease } from './lease.ts'
import type { ClaimConditions, ClaimResult, ReplayStore } from './replay-store.ts'
import { claimDeadline, SingleUseStoreError, toStoreError, withStoreTimeout } from './replay-store.ts'

/** What the guard reports besides a first run: a refused replay, a lost lease, a failing store. */
export type SingleUseEventType = 'duplicate' | 'in_progress' | 'lease_lost' | 'store_error' | 'stale'

/** One report of the guard, for logs and metrics: what happened, to which key, and why. */
export interface SingleUseEvent {
  type: SingleUseEventType
  /** The nonce the run was claimed under. */
  key: string
  /** The recorded outcome or action of a duplicate, or what failed. */
  detail?: string
}

/** Options of `createSingleUseGuard`. */
export interface SingleUseGuardOptions {
  /** Where the records are kept: one store shared by every instance that may receive a retry. */
  store: ReplayStore
  /** How long a claim holds without renewal; a dead worker's key frees up after this. Default 15000. */
  leaseMs?: number
  /** Renewal period while work runs. Default leaseMs / 3, so two renewals may fail before the lease ends. */
  renewEveryMs?: number
  /** Bound on every store call. Default min(5000, leaseMs / 3). */
  storeTimeoutMs?: number
  /** Told of every event but a plain first run. */
  onEvent?: (event: SingleUseEvent) => void
  /** Told of every store call: which, how long it took (ms), whether it succeeded. For metrics. */
  onStoreCall?: (operation: string, ms: number, ok: boolean) => void
}

const GUARD_OPTION_NAMES = {
  store: true,
  leaseMs: true,
  renewEveryMs: true,
  storeTimeoutMs: true,
  onEvent: true,
  onStoreCall: true,
} as const satisfies OptionNames<SingleUseGuardOptions>

/**
 * `previous: 'abandoned'` on `executed`: an earlier executor died mid-work, so this run may be a
 * re-run. `stale`: the store is on another epoch than the one named, so it lost the records of
 * that time and cannot tell a replay from a first use; nothing ran and nothing was written.
 */
export type GuardOutcome<T> =
  | { status: 'executed'; value: T; outcome: string; previous?: 'abandoned' }
  | { status: 'duplicate'; what: string; outcome: string }
  | { status: 'in_progress'; what: string }
  | { status: 'stale' }

/**
 * Runs an action at most once per key, over a `ReplayStore`: what makes a `singleUse` tool's
 * answer run once. Exported so a store can be tried under the guard that will drive it (races,
 * faults) and an action outside a server can be guarded the same way.
 */
export interface SingleUseGuard {
  /**
   * key: a nonce from a sealed requestState (never the token text). what: a short
   * description of the action. `work` runs at most once per key within ttlMs, and
   * `describe(value)` becomes the recorded outcome that duplicates are told.
   * A throw from `work` releases the key (an honest retry may run) and is rethrown.
   * An unreachable store throws SingleUseStoreError before `work` runs. If the lease is
   * lost while `work` runs, its signal is aborted and run() throws LeaseLostError even
   * when `work` returned: another executor may have run too, so this is never success.
   * A `work` that declares no parameter (`work.length === 0`) is handed a signal that never
   * aborts, which saves an AbortController a run; run() throws LeaseLostError all the same.
   * `epoch`: the store's epoch when the state carrying `key` was sealed (see `epoch()`).
   */
  run<T>(
    key: string,
    what: string,
    ttlMs: number,
    work: (signal: AbortSignal) => Promise<T>,
    describe: (value: T) => string,
    epoch?: string,
  ): Promise<GuardOutcome<T>>
  /**
   * The store's epoch, to seal into a state whose answer will be claimed: read once, and read
   * again after a claim found the store on another one. Throws SingleUseStoreError when the store
   * cannot answer.
   */
  epoch(): Promise<string>
}

/**
 * The lease of a run was lost (a renewal was refused, or none succeeded before the lease
 * ran out). Also the abort reason of the work's signal. On the error run() throws,
 * `completed` says whether the work returned (then `value` and `outcome` are set) and
 * `recorded` whether its outcome still reached the record (only if nobody claimed since).
 * The message is the one a client reads; `reason` says what happened, for logs.
 */
export class LeaseLostError extends TesseraError {
  override readonly name = 'LeaseLostError'
  readonly key: string
  readonly what: string
  readonly reason: string
  completed = false
  recorded = false
  value: unknown
  outcome: string | undefined

  constructor(key: string, what: string, reason: string) {
    super(
      'TESSERA_LEASE_LOST',
      'Internal error: the single-use lease was lost while the action ran; check its outcome before retrying.',
    )
    this.key = key
    this.what = what
    this.reason = reason
  }
}

const DEFAULT_LEASE_MS = 15_000
const COMPLETE_ATTEMPTS = 3
const COMPLETE_BACKOFF_MS = 100

interface Settings {
  store: ReplayStore
  leaseMs: number
  renewEveryMs: number
  timeoutMs: number
  emit: (event: SingleUseEvent) => void
  observe: ((operation: string, ms: number, ok: boolean) => void) | undefined
}

interface Lease extends KeptLease {
  /** What the lease's loss aborts; the unread signal when the work takes none. */
  signal: AbortSignal
}

/** What a `work` that declares no parameter is handed: it cannot read it, so one serves every run. */
let unreadSignal: AbortSignal | undefined

function unread(): AbortSignal {
  if (unreadSignal === undefined) unreadSignal = new AbortController().signal
  return unreadSignal
}

/**
 * Creates a single-use guard over `options.store`. A server builds its own from `stores.replay`;
 * call this only to run the guard outside a server.
 */
export function createSingleUseGuard(options: SingleUseGuardOptions): SingleUseGuard {
  assertKnownOptions(options, GUARD_OPTION_NAMES, 'createSingleUseGuard', { required: true })
  const settings = resolveSettings(options)
  let known: Promise<string> | undefined
  return {
    async run(key, what, ttlMs, work, describe, epoch) {
      const outcome = await runOnce(settings, key, what, ttlMs, work, describe, epoch)
      // The store has moved on (lost its records): what this process knew of it is old too.
      if (outcome.status === 'stale') known = undefined
      return outcome
    },
    epoch() {
      known ??= callStore(settings, 'epoch', () => settings.store.epoch()).catch((error: unknown) => {
        known = undefined
        throw toStoreError('epoch', error)
      })
      return known
    },
  }
}

function resolveSettings(options: SingleUseGuardOptions): Settings {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS
  const renewEveryMs = options.renewEveryMs ?? Math.floor(leaseMs / 3)
  const timeoutMs = options.storeTimeoutMs ?? Math.min(5000, Math.floor(leaseMs / 3))
  assertPositive('leaseMs', leaseMs)
  assertPositive('renewEveryMs', renewEveryMs)
  assertPositive('storeTimeoutMs', timeoutMs)
  if (renewEveryMs >= leaseMs) throw new RangeError('renewEveryMs must be shorter than leaseMs')
  const listener = options.onEvent
  const emit = (event: SingleUseEvent): void => {
    // A faulty listener must not turn a guarded action into an unguarded one.
    try {
      listener?.(event)
    } catch {}
  }
  return { store: options.store, leaseMs, renewEveryMs, timeoutMs, emit, observe: options.onStoreCall }
}

function assertPositive(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number`)
}

/** Every store call is bounded, and a store that throws synchronously counts as unavailable too. */
function callStore<T>(settings: Settings, operation: string, call: () => Promise<T>): Promise<T> {
  let called: Promise<T>
  try {
    called = call()
  } catch (error) {
    called = Promise.reject(error)
  }
  const pending = withStoreTimeout(operation, called, settings.timeoutMs)
  const observe = settings.observe
  if (observe === undefined) return pending
  const started = performance.now()
  const report = (ok: boolean) => {
    // Metrics must never turn a guarded action into a failed one.
    try {
      observe(operation, performance.now() - started, ok)
    } catch {}
  }
  return pending.then(
    (value) => {
      report(true)
      return value
    },
    (error: unknown) => {
      report(false)
      throw error
    },
  )
}

async function runOnce<T>(
  settings: Settings,
  key: string,
  what: string,
  ttlMs: number,
  work: (signal: AbortSignal) => Promise<T>,
  describe: (value: T) => string,
  epoch: string | undefined,
): Promise<GuardOutcome<T>> {
  if (typeof key !== 'string' || key.length === 0)
    throw new TypeError('single-use key must be a non-empty string')
  assertPositive('ttlMs', ttlMs)
  const sentAt = Date.now()
  const claim = await claimOrThrow(settings, key, what, ttlMs, epoch)
  if (claim.kind === 'stale') {
    settings.emit({ type: 'stale', key })
    return { status: 'stale' }
  }
  if (claim.kind === 'done') {
    settings.emit({ type: 'duplicate', key, detail: claim.outcome })
    return { status: 'duplicate', what: claim.what, outcome: claim.outcome }
  }
  if (claim.kind === 'in_progress') {
    settings.emit({ type: 'in_progress', key, detail: claim.what })
    return { status: 'in_progress', what: claim.what }
  }
  const lease = keepClaim(settings, key, what, claim.fence, sentAt, work.length > 0)
  const value = await runWork(settings, lease, key, claim.fence, work)
  const outcome = await finish(settings, lease, { key, what, fence: claim.fence }, value, describe)
  return claim.previous
    ? { status: 'executed', value, outcome, previous: claim.previous }
    : { status: 'executed', value, outcome }
}

/**
 * The claim, or a throw without a record. The store is given a deadline a margin before this
 * caller gives up, so a claim that sat behind a stalled store writes nothing once the caller has
 * answered "nothing was done".
 */
async function claimOrThrow(
  settings: Settings,
  key: string,
  what: string,
  ttlMs: number,
  epoch: string | undefined,
): Promise<Exclude<ClaimResult, { kind: 'late' }>> {
  const conditions: ClaimConditions = { deadline: claimDeadline(settings.timeoutMs) }
  if (epoch !== undefined) conditions.epoch = epoch
  try {
    const claim = await callStore(settings, 'claim', () =>
      settings.store.claim(key, what, settings.leaseMs, ttlMs, conditions),
    )
    if (claim.kind === 'late')
      throw new Error('the claim reached the store after its deadline; nothing was written')
    return claim
  } catch (error) {
    const storeError = toStoreError('claim', error)
    settings.emit({ type: 'store_error', key, detail: storeError.detail })
    throw storeError
  }
}

async function runWork<T>(
  settings: Settings,
  lease: Lease,
  key: string,
  fence: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  try {
    return await work(lease.signal)
  } catch (error) {
    await lease.stop()
    await callStore(settings, 'release', () => settings.store.release(key, fence)).catch(
      (releaseError: unknown) =>
        // The lease still runs out, after which the key is reclaimable (as abandoned).
        settings.emit({ type: 'store_error', key, detail: `release failed: ${failureText(releaseError)}` }),
    )
    throw error
  }
}

async function finish<T>(
  settings: Settings,
  lease: Lease,
  record: { key: string; what: string; fence: string },
  value: T,
  describe: (value: T) => string,
): Promise<string> {
  await lease.stop()
  const described = describeSafely(value, describe)
  // Even after a lost lease: if the fence still holds, duplicates should hear the outcome.
  const recorded = await completeWithRetry(settings, record.key, record.fence, described.outcome)
  const alreadyLost = lease.lostReason()
  const lost = alreadyLost ?? (recorded === false ? 'the record was claimed by another executor' : undefined)
  if (lost !== undefined) {
    if (alreadyLost === undefined) settings.emit({ type: 'lease_lost', key: record.key, detail: lost })
    const error = new LeaseLostError(record.key, record.what, lost)
    error.completed = true
    error.recorded = recorded === true
    error.value = value
    error.outcome = described.outcome
    throw error
  }
  if (described.error !== undefined) throw described.error
  return described.outcome
}

function describeSafely<T>(value: T, describe: (value: T) => string): { outcome: string; error?: unknown } {
  try {
    return { outcome: describe(value) }
  } catch (error) {
    // The work did run: record something, so a retry is told so instead of running it again.
    return { outcome: 'executed (outcome could not be described)', error }
  }
}

/** true: recorded; false: the fence was lost; undefined: the store never answered. */
async function completeWithRetry(
  settings: Settings,
  key: string,
  fence: string,
  outcome: string,
): Promise<boolean | undefined> {
  let lastError: unknown
  for (let attempt = 0; attempt < COMPLETE_ATTEMPTS; attempt++) {
    if (attempt > 0) await sleep(COMPLETE_BACKOFF_MS * attempt)
    try {
      return await callStore(settings, 'complete', () => settings.store.complete(key, fence, outcome))
    } catch (error) {
      lastError = error
    }
  }
  // The work ran and this caller is told so; the record stays in progress and turns
  // abandoned when the lease runs out, which inspect() and the next claim will report.
  settings.emit({ type: 'store_error', key, detail: `outcome not recorded: ${failureText(lastError)}` })
  return undefined
}

/**
 * The claim's lease, renewed through the store; its loss aborts the work's signal. The signal is
 * made only for a work that declares it: an AbortController costs about 3 µs, a tenth of the guard.
 */
function keepClaim(
  settings: Settings,
  key: string,
  what: string,
  fence: string,
  sentAt: number,
  signalled: boolean,
): Lease {
  const { store, leaseMs, renewEveryMs, emit } = settings
  const controller = signalled ? new AbortController() : undefined
  const lease = keepLease({
    leaseMs,
    renewEveryMs,
    sentAt,
    renew: () => callStore(settings, 'renew', () => store.renew(key, fence, leaseMs)),
    onRenewError: (error) =>
      emit({ type: 'store_error', key, detail: `renew failed: ${failureText(error)}` }),
    onLost: (reason) => {
      emit({ type: 'lease_lost', key, detail: reason })
      controller?.abort(new LeaseLostError(key, what, reason))
    },
  })
  return { signal: controller?.signal ?? unread(), lostReason: lease.lostReason, stop: lease.stop }
}

/** A store failure as log text: the detail of a store error, not the sentence a client reads. */
function failureText(error: unknown): string {
  return error instanceof SingleUseStoreError ? error.detail : String(error)
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => backgroundTimeout(resolve, ms))
}
