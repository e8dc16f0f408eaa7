/**
 * @module sqlite-rate-limit-store
 * Rate-limit buckets in one SQLite file, so every process of one host takes from the same
 * buckets. One row per bucket: its tokens, when they were counted, and when it is full again. A
 * take is one `BEGIN IMMEDIATE` transaction (the write lock of the file, taken before the read):
 * read, refill for the time passed, take, write; so of two processes, never both get the last
 * token. The arithmetic is core's `takeToken`. Rows of buckets full again are swept now and then:
 * a bucket without a row is full. The clock is the host's (`Date.now`), which its processes share.
 * better-sqlite3 is synchronous; every call runs inside an async function, so a failure is a
 * rejected promise, never a throw. A take does not wait for the disk, on its own handle (opened
 * with `synchronous = NORMAL`) or on a shared one whose WAL is synced for other stores: a bucket a
 * power loss takes back is a bucket fuller than it was, never a write acted on twice.
 */
import {
  assertBucket,
  assertKnownOptions,
  type BucketState,
  type OptionNames,
  type RateLimitStore,
  type TokenBucket,
  takeToken,
} from '@tessera/core/ports'
import type Database from 'better-sqlite3'
import {
  CONNECTION_OPTION_NAMES,
  type ConnectionOptions,
  openConnection,
  sqlIdentifier,
} from './sqlite-connection.ts'

/** The file or handle of `sqliteRateLimitStore`, and its table. */
export interface SqliteRateLimitStoreOptions extends ConnectionOptions {
  /** Table name (letters, digits, underscore). Default `tessera_rate_limits`. */
  table?: string
}

const OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  table: true,
} as const satisfies OptionNames<SqliteRateLimitStoreOptions>

/** Takes between two sweeps of the rows of buckets that are full again. */
const SWEEP_EVERY = 1024

/**
 * A `RateLimitStore` in one SQLite file: every process of one host (the workers of
 * `serveCluster`) takes from the same buckets.
 *
 * @example
 * ```ts
 * import { createServer } from '@tessera/core'
 * import { sqliteRateLimitStore } from '@tessera/store-sqlite'
 *
 * const app = createServer({
 *   name: 'ops',
 *   version: '1.0.0',
 *   rateLimits: { caller: { calls: 60, perMs: 60_000 } },
 *   stores: { rateLimits: sqliteRateLimitStore({ path: '/var/lib/ops/tessera.db' }) },
 * })
 * ```
 */
export function sqliteRateLimitStore(options: SqliteRateLimitStoreOptions): RateLimitStore {
  assertKnownOptions(options, OPTION_NAMES, 'sqliteRateLimitStore', { required: true })
  const table = sqlIdentifier(options.table ?? 'tessera_rate_limits', 'table')
  // A bucket lost to a power cut is full again: lenient, never a wrong refusal.
  const { db, release } = openConnection(options, 'sqliteRateLimitStore', { synchronous: 'NORMAL' })
  let sql: ReturnType<typeof prepareStatements>
  try {
    // One write lock for both statements: workers opening the file at once wait for each other.
    db.transaction(() =>
      db.exec(`CREATE TABLE IF NOT EXISTS "${table}" (
        key TEXT PRIMARY KEY NOT NULL,
        tokens REAL NOT NULL,
        at INTEGER NOT NULL,
        full_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS "${table}_full_at" ON "${table}" (full_at);`),
    ).immediate()
    sql = prepareStatements(db, table)
  } catch (error) {
    void release()
    throw error
  }
  let closed = false
  let takes = 0
  const take = db.transaction((key: string, bucket: TokenBucket, now: number) => {
    const row = sql.select.get(key) as BucketState | undefined
    const { state, take } = takeToken(row, bucket, now)
    const fullAt = now + Math.ceil((bucket.capacity - state.tokens) * bucket.refillMs)
    sql.upsert.run(key, state.tokens, state.at, fullAt)
    return take
  })

  return {
    async take(key, bucket) {
      if (closed) throw new Error('sqlite rate limit store is not open')
      assertBucket(bucket)
      if (++takes % SWEEP_EVERY === 0) sql.sweep.run(Date.now())
      return take.immediate(key, bucket, Date.now())
    },
    async close() {
      closed = true
      await release()
    },
  }
}

function prepareStatements(db: Database.Database, table: string) {
  const t = `"${table}"`
  return {
    select: db.prepare(`SELECT tokens, at FROM ${t} WHERE key = ?`),
    upsert: db.prepare(
      `INSERT INTO ${t} (key, tokens, at, full_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET tokens = excluded.tokens, at = excluded.at, full_at = excluded.full_at`,
    ),
    sweep: db.prepare(`DELETE FROM ${t} WHERE full_at <= ?`),
  }
}
