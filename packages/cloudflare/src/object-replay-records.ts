/**
 * @module object-replay-records
 * The single-use records inside the Durable Object, in its SQLite storage. Every method is
 * synchronous: a Durable Object runs one call at a time and a call that awaits nothing cannot be
 * interleaved with another, so the check and the write of a claim are one atomic step. The object
 * answers only once its writes are durable.
 */
import type { SqlStorage } from 'cloudflare:workers'
import {
  type ClaimConditions,
  type ClaimResult,
  newEpoch,
  newFence,
  pastDeadline,
  type ReplayRecordView,
} from '@tessera/core/ports'

interface Row extends Record<string, string | number | null> {
  what: string
  status: 'in_progress' | 'done'
  fence: string
  lease_until: number
  expires_at: number
  outcome: string | null
}

/**
 * The epoch's row: a row of the records' own table, so whatever loses the records loses the epoch
 * with them. Record keys are nonces and `dpop:…` keys, and none starts with ':'.
 */
const EPOCH_KEY = ':epoch'
/** Expired records are deleted once this many claims have been made since the last sweep. */
const SWEEP_EVERY = 256

export class ObjectReplayRecords {
  readonly #sql: SqlStorage
  #claimsSinceSweep = 0

  constructor(sql: SqlStorage) {
    this.#sql = sql
    sql.exec(`CREATE TABLE IF NOT EXISTS tessera_single_use (
      key TEXT PRIMARY KEY NOT NULL,
      what TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('in_progress', 'done')),
      fence TEXT NOT NULL,
      lease_until INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      outcome TEXT
    )`)
    sql.exec('CREATE INDEX IF NOT EXISTS tessera_single_use_expires_at ON tessera_single_use (expires_at)')
  }

  claim(
    key: string,
    what: string,
    leaseMs: number,
    ttlMs: number,
    conditions?: ClaimConditions,
  ): ClaimResult {
    const now = Date.now()
    if (++this.#claimsSinceSweep >= SWEEP_EVERY) {
      this.#claimsSinceSweep = 0
      this.#sql.exec('DELETE FROM tessera_single_use WHERE expires_at <= ? AND key <> ?', now, EPOCH_KEY)
    }
    if (pastDeadline(conditions?.deadline, now)) return { kind: 'late' }
    if (conditions?.epoch !== undefined && conditions.epoch !== this.#storedEpoch()) return { kind: 'stale' }
    const row = this.#row(key)
    const live = row !== undefined && row.expires_at > now ? row : undefined
    if (live?.status === 'done') return { kind: 'done', what: live.what, outcome: live.outcome ?? '' }
    if (live !== undefined && live.lease_until > now) return { kind: 'in_progress', what: live.what }
    const fence = newFence()
    this.#sql.exec(
      `INSERT OR REPLACE INTO tessera_single_use (key, what, status, fence, lease_until, expires_at, outcome)
       VALUES (?, ?, 'in_progress', ?, ?, ?, NULL)`,
      key,
      what,
      fence,
      now + leaseMs,
      now + Math.max(ttlMs, leaseMs),
    )
    return live === undefined ? { kind: 'claimed', fence } : { kind: 'claimed', fence, previous: 'abandoned' }
  }

  epoch(): string {
    const stored = this.#storedEpoch()
    if (stored !== undefined) return stored
    const epoch = newEpoch()
    this.#sql.exec(
      `INSERT INTO tessera_single_use (key, what, status, fence, lease_until, expires_at, outcome)
       VALUES (?, 'epoch', 'done', '', ?, ?, ?)`,
      EPOCH_KEY,
      Number.MAX_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER,
      epoch,
    )
    return epoch
  }

  renew(key: string, fence: string, leaseMs: number): boolean {
    const now = Date.now()
    const until = now + leaseMs
    return (
      this.#sql.exec(
        `UPDATE tessera_single_use SET lease_until = ?, expires_at = max(expires_at, ?)
         WHERE key = ? AND fence = ? AND status = 'in_progress' AND expires_at > ?`,
        until,
        until,
        key,
        fence,
        now,
      ).rowsWritten > 0
    )
  }

  complete(key: string, fence: string, outcome: string): boolean {
    return (
      this.#sql.exec(
        `UPDATE tessera_single_use SET status = 'done', outcome = ?
         WHERE key = ? AND fence = ? AND expires_at > ?`,
        outcome,
        key,
        fence,
        Date.now(),
      ).rowsWritten > 0
    )
  }

  release(key: string, fence: string): void {
    this.#sql.exec('DELETE FROM tessera_single_use WHERE key = ? AND fence = ?', key, fence)
  }

  inspect(key: string): ReplayRecordView | undefined {
    const now = Date.now()
    const row = this.#row(key)
    if (row === undefined || row.expires_at <= now) return undefined
    if (row.status === 'done') return { status: 'done', what: row.what, outcome: row.outcome ?? '' }
    return { status: row.lease_until > now ? 'in_progress' : 'abandoned', what: row.what }
  }

  #row(key: string): Row | undefined {
    return this.#sql
      .exec<Row>(
        'SELECT what, status, fence, lease_until, expires_at, outcome FROM tessera_single_use WHERE key = ?',
        key,
      )
      .toArray()[0]
  }

  #storedEpoch(): string | undefined {
    return this.#row(EPOCH_KEY)?.outcome ?? undefined
  }
}
