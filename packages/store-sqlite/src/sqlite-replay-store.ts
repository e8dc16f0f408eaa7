/**
 * @module sqlite-replay-store
 * A ReplayStore in one SQLite file, shared by every process on one host. WAL lets readers
 * proceed while a claim writes; `BEGIN IMMEDIATE` takes the write lock before the check,
 * so check-and-claim is one step across processes; busy_timeout makes a contender wait
 * for that lock (microseconds in practice) instead of failing. The writes of one turn of the
 * event loop share one transaction and one sync (see sqlite-group-commit.ts).
 */
import {
  assertClaimArguments,
  assertKnownOptions,
  type ClaimConditions,
  type ClaimResult,
  newEpoch,
  newFence,
  type OptionNames,
  pastDeadline,
  positiveInteger,
  type ReplayRecordView,
  type ReplayStore,
  toStoreError,
} from '@tessera/core/ports'
import type Database from 'better-sqlite3'
import {
  CONNECTION_OPTION_NAMES,
  type ConnectionOptions,
  durableWrites,
  openConnection,
  type StoreConnection,
  sqlIdentifier,
} from './sqlite-connection.ts'
import { groupCommit } from './sqlite-group-commit.ts'

/** The file or handle of `sqliteReplayStore`, its table, durability and sweeping. */
export interface SqliteReplayStoreOptions extends ConnectionOptions {
  /** Table name (letters, digits, underscore). Default `tessera_replay`. */
  table?: string
  /** SQLite `synchronous` level; FULL (default) keeps a record through a power loss. Ignored with `database`. */
  synchronous?: 'FULL' | 'NORMAL'
  /** Delete expired rows once this many claims have been made since the last sweep. Default 256. */
  sweepEvery?: number
}

const REPLAY_STORE_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  table: true,
  synchronous: true,
  sweepEvery: true,
} as const satisfies OptionNames<SqliteReplayStoreOptions>

interface Row {
  what: string
  status: 'in_progress' | 'done'
  fence: string
  lease_until: number
  expires_at: number
  outcome: string | null
}

/** A ReplayStore in one SQLite file, for the single-use records of every process of one host. */
export function sqliteReplayStore(options: SqliteReplayStoreOptions): ReplayStore {
  assertKnownOptions(options, REPLAY_STORE_OPTION_NAMES, 'sqliteReplayStore', { required: true })
  const table = sqlIdentifier(options.table ?? 'tessera_replay', 'table')
  const sweepEvery = positiveInteger(options.sweepEvery ?? 256, 'sweepEvery')
  const { db, release } = openReplayConnection(options)
  let sql: ReturnType<typeof prepareStatements>
  try {
    ensureSchema(db, table)
    sql = prepareStatements(db, table)
  } catch (error) {
    void release()
    throw error
  }
  let claimsSinceSweep = 0
  let closed = false

  const durable = durableWrites(db)
  const commit = groupCommit(db, toStoreError, durable)

  // Runs inside the group's transaction, under the write lock: the check and the claim are one step.
  const claimRecord = (
    key: string,
    what: string,
    leaseMs: number,
    ttlMs: number,
    conditions: ClaimConditions | undefined,
  ): ClaimResult => {
    const now = Date.now()
    // Inside the write lock: a claim that waited for it past its deadline writes nothing.
    if (pastDeadline(conditions?.deadline, now)) return { kind: 'late' } as const
    const epoch = conditions?.epoch
    if (
      epoch !== undefined &&
      (sql.epoch.get(EPOCH_KEY) as { outcome: string } | undefined)?.outcome !== epoch
    ) {
      return { kind: 'stale' } as const
    }
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
  }

  // A row of the records' own table, so whatever loses the records (a new file, a dropped or
  // emptied table) loses the epoch with them; made once, and never swept (it never expires).
  const epochTransaction = db.transaction((): string => {
    sql.makeEpoch.run(EPOCH_KEY, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, newEpoch())
    return (sql.epoch.get(EPOCH_KEY) as { outcome: string }).outcome
  })

  // Every call is synchronous underneath; the wrapper turns any failure into a store error.
  const guarded = <T>(operation: string, body: () => T): Promise<T> => {
    try {
      if (closed) throw new Error('sqlite replay store is not open')
      return Promise.resolve(body())
    } catch (error) {
      return Promise.reject(toStoreError(operation, error))
    }
  }
  const write = <T>(operation: string, body: () => T): Promise<T> =>
    closed
      ? Promise.reject(toStoreError(operation, new Error('sqlite replay store is not open')))
      : commit.write(operation, body)

  return {
    async claim(key, what, leaseMs, ttlMs, conditions): Promise<ClaimResult> {
      assertClaimArguments(key, leaseMs, ttlMs, conditions)
      const sweep = ++claimsSinceSweep >= sweepEvery
      if (sweep) claimsSinceSweep = 0
      return write('claim', () => {
        if (sweep) sql.sweep.run(Date.now())
        return claimRecord(key, what, leaseMs, ttlMs, conditions)
      })
    },
    renew: (key, fence, leaseMs) =>
      write('renew', () => {
        const now = Date.now()
        return sql.renew.run({ leaseUntil: now + leaseMs, key, fence, now }).changes === 1
      }),
    complete: (key, fence, outcome) =>
      write('complete', () => sql.complete.run({ outcome, key, fence, now: Date.now() }).changes === 1),
    release: (key, fence) =>
      write('release', () => {
        sql.release.run(key, fence)
      }),
    epoch: () =>
      guarded('epoch', () => epochTransaction.immediate())
        .then(durable)
        .catch((error: unknown) => Promise.reject(toStoreError('epoch', error))),
    inspect: (key) => guarded('inspect', () => view(sql.select.get(key) as Row | undefined, Date.now())),
    async close() {
      closed = true
      // The writes already asked for commit (or fail) before the handle goes.
      if (db.open) commit.flush()
      await release()
    },
  }
}

function openReplayConnection(options: SqliteReplayStoreOptions): StoreConnection {
  try {
    return openConnection(options, 'sqliteReplayStore', { synchronous: options.synchronous ?? 'FULL' })
  } catch (error) {
    // A bad option is the caller's mistake, not an unavailable store.
    if (error instanceof TypeError || error instanceof RangeError) throw error
    throw toStoreError('open', error)
  }
}

/** The epoch's row: record keys are nonces (base64url) and `dpop:…` keys, and none starts with ':'. */
const EPOCH_KEY = ':epoch'

function ensureSchema(db: Database.Database, table: string): void {
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
}

function prepareStatements(db: Database.Database, table: string) {
  const t = `"${table}"`
  return {
    epoch: db.prepare(`SELECT outcome FROM ${t} WHERE key = ?`),
    makeEpoch: db.prepare(
      `INSERT OR IGNORE INTO ${t} (key, what, status, fence, lease_until, expires_at, outcome)
       VALUES (?, 'epoch', 'done', '', ?, ?, ?)`,
    ),
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
