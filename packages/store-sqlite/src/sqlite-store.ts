/**
 * @module sqlite-store
 * A ReplayStore in one SQLite file, shared by every process on one host. WAL lets readers
 * proceed while a claim writes; `BEGIN IMMEDIATE` takes the write lock before the check,
 * so check-and-claim is one step across processes; busy_timeout makes a contender wait
 * for that lock (microseconds in practice) instead of failing.
 */
import type { ClaimResult, ReplayRecordView, ReplayStore } from '@tessera/core/replay'
import { assertClaimArguments, newFence, toStoreError } from '@tessera/core/replay'
import type Database from 'better-sqlite3'
import { openDatabase } from './sqlite-database.ts'

export interface SqliteReplayStoreOptions {
  /** Database file; every process that must see the records opens the same one. */
  path: string
  /** Table name (letters, digits, underscore). Default `tessera_replay`. */
  table?: string
  /**
   * How long a call waits for another process's write lock. better-sqlite3 is synchronous,
   * so this wait blocks the event loop: keep it short. Default 2000.
   */
  busyTimeoutMs?: number
  /** SQLite `synchronous` level; FULL (default) keeps a record through a power loss. */
  synchronous?: 'FULL' | 'NORMAL'
  /** Delete expired rows once this many claims have been made since the last sweep. Default 256. */
  sweepEvery?: number
}

interface Row {
  what: string
  status: 'in_progress' | 'done'
  fence: string
  lease_until: number
  expires_at: number
  outcome: string | null
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/

export function sqliteReplayStore(options: SqliteReplayStoreOptions): ReplayStore {
  const table = options.table ?? 'tessera_replay'
  if (!IDENTIFIER.test(table)) throw new TypeError(`invalid table name: ${table}`)
  const db = openReplayDatabase(options)
  const sql = prepareStatements(db, table)
  const sweepEvery = options.sweepEvery ?? 256
  let claimsSinceSweep = 0

  const claimTransaction = db.transaction((key: string, what: string, leaseMs: number, ttlMs: number) => {
    const now = Date.now()
    const row = sql.select.get(key) as Row | undefined
    const live = row && row.expires_at > now ? row : undefined
    if (live?.status === 'done')
      return { kind: 'done', what: live.what, outcome: live.outcome ?? '' } as const
    if (live && live.lease_until > now) return { kind: 'in_progress', what: live.what } as const
    const fence = newFence()
    sql.upsert.run(key, what, fence, now + leaseMs, now + Math.max(ttlMs, leaseMs))
    return live
      ? ({ kind: 'claimed', fence, previous: 'abandoned' } as const)
      : ({ kind: 'claimed', fence } as const)
  })

  // Every call is synchronous underneath; the wrapper turns any failure into a store error.
  const guarded = <T>(operation: string, body: () => T): Promise<T> => {
    try {
      return Promise.resolve(body())
    } catch (error) {
      return Promise.reject(toStoreError(operation, error))
    }
  }

  return {
    async claim(key, what, leaseMs, ttlMs): Promise<ClaimResult> {
      assertClaimArguments(key, leaseMs, ttlMs)
      return guarded('claim', () => {
        if (++claimsSinceSweep >= sweepEvery) {
          claimsSinceSweep = 0
          sql.sweep.run(Date.now())
        }
        return claimTransaction.immediate(key, what, leaseMs, ttlMs)
      })
    },
    renew: (key, fence, leaseMs) =>
      guarded('renew', () => {
        const now = Date.now()
        return sql.renew.run({ leaseUntil: now + leaseMs, key, fence, now }).changes === 1
      }),
    complete: (key, fence, outcome) =>
      guarded('complete', () => sql.complete.run({ outcome, key, fence, now: Date.now() }).changes === 1),
    release: (key, fence) =>
      guarded('release', () => {
        sql.release.run(key, fence)
      }),
    inspect: (key) => guarded('inspect', () => view(sql.select.get(key) as Row | undefined, Date.now())),
    async close() {
      if (db.open) db.close()
    },
  }
}

function openReplayDatabase(options: SqliteReplayStoreOptions): Database.Database {
  try {
    return openDatabase(options.path, options.busyTimeoutMs ?? 2000, options.synchronous ?? 'FULL')
  } catch (error) {
    throw toStoreError('open', error)
  }
}

function prepareStatements(db: Database.Database, table: string) {
  const t = `"${table}"`
  db.exec(`CREATE TABLE IF NOT EXISTS ${t} (
    key TEXT PRIMARY KEY NOT NULL,
    what TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('in_progress', 'done')),
    fence TEXT NOT NULL,
    lease_until INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    outcome TEXT
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS "${table}_expires_at" ON ${t} (expires_at);`)
  return {
    select: db.prepare(
      `SELECT what, status, fence, lease_until, expires_at, outcome FROM ${t} WHERE key = ?`,
    ),
    upsert: db.prepare(
      `INSERT OR REPLACE INTO ${t} (key, what, status, fence, lease_until, expires_at, outcome)
       VALUES (?, ?, 'in_progress', ?, ?, ?, NULL)`,
    ),
    renew: db.prepare(
      `UPDATE ${t} SET lease_until = @leaseUntil, expires_at = max(expires_at, @leaseUntil)
       WHERE key = @key AND fence = @fence AND status = 'in_progress' AND expires_at > @now`,
    ),
    complete: db.prepare(
      `UPDATE ${t} SET status = 'done', outcome = @outcome WHERE key = @key AND fence = @fence AND expires_at > @now`,
    ),
    release: db.prepare(`DELETE FROM ${t} WHERE key = ? AND fence = ?`),
    sweep: db.prepare(`DELETE FROM ${t} WHERE expires_at <= ?`),
  }
}

function view(row: Row | undefined, now: number): ReplayRecordView | undefined {
  if (!row || row.expires_at <= now) return undefined
  if (row.status === 'done') return { status: 'done', what: row.what, outcome: row.outcome ?? '' }
  return { status: row.lease_until > now ? 'in_progress' : 'abandoned', what: row.what }
}
