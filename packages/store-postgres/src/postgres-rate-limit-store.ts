/**
 * @module postgres-rate-limit-store
 * Rate-limit buckets in a PostgreSQL table, shared by every host that reaches the database. A take
 * is one `INSERT … ON CONFLICT DO UPDATE` statement: the unique key serialises two takes of one
 * bucket and the row lock makes read, refill, take and write one step, so two takes from anywhere
 * never both get the last token. The time is the server's (`clock_timestamp()`), so hosts with
 * skewed clocks refill alike. The arithmetic is core's `takeToken`, written again in SQL. Each row
 * keeps when its bucket is full again, and rows past it are swept now and then: a bucket without a
 * row is full.
 */
import {
  assertBucket,
  assertKnownOptions,
  type BucketTake,
  type OptionNames,
  positiveInteger,
  type RateLimitStore,
  withStoreTimeout,
} from '@tessera/core/ports'
import {
  CONNECTION_OPTION_NAMES,
  type ConnectionOptions,
  openConnection,
  prepared,
  prepareSchema,
  sqlIdentifier,
} from './postgres-connection.ts'

/** The pool of `postgresRateLimitStore`, its table, the bound on its calls and its sweeping. */
export interface PostgresRateLimitStoreOptions extends ConnectionOptions {
  /** Table name (letters, digits, underscore), created if missing. Default `tessera_rate_limits`. */
  table?: string
  /** Bound on every call, including connecting and creating the table. Default 2000. */
  timeoutMs?: number
  /** Delete the rows of buckets full again once this many takes have been made since the last sweep. Default 1024. */
  sweepEvery?: number
}

const OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  table: true,
  timeoutMs: true,
  sweepEvery: true,
} as const satisfies OptionNames<PostgresRateLimitStoreOptions>

/**
 * A `RateLimitStore` in a PostgreSQL table: every host that reaches the database takes from the
 * same buckets.
 *
 * @example
 * ```ts
 * import { createServer } from '@tessera/core'
 * import { postgresRateLimitStore } from '@tessera/store-postgres'
 *
 * const app = createServer({
 *   name: 'ops',
 *   version: '1.0.0',
 *   rateLimits: { caller: { calls: 60, perMs: 60_000 } },
 *   stores: { rateLimits: postgresRateLimitStore({ connectionString: process.env.DATABASE_URL }) },
 * })
 * ```
 */
export function postgresRateLimitStore(options: PostgresRateLimitStoreOptions): RateLimitStore {
  assertKnownOptions(options, OPTION_NAMES, 'postgresRateLimitStore', { required: true })
  // Less than 63: the name of its index adds `_full_at`.
  const table = sqlIdentifier(options.table ?? 'tessera_rate_limits', 'table', 55)
  const timeoutMs = positiveInteger(options.timeoutMs ?? 2000, 'timeoutMs')
  const sweepEvery = positiveInteger(options.sweepEvery ?? 1024, 'sweepEvery')
  const { pool, release } = openConnection(options, 'postgresRateLimitStore', { timeoutMs })
  const sql = statements(table)
  const named = prepared('tessera_rate_limit', table, sql.calls)
  const ensureSchema = prepareSchema(pool, sql.create)
  let takesSinceSweep = 0
  let sweeping: Promise<unknown> = Promise.resolve()
  let closed = false

  const take = async (key: string, capacity: number, refillMs: number): Promise<BucketTake> => {
    // A closed store refuses even on a pool that stays open (a borrowed or shared one).
    if (closed) throw new Error('postgres rate limit store is not open')
    await ensureSchema()
    const { rows } = await pool.query<{ tokens: number; allowed: boolean }>({
      name: named.take.name,
      text: named.take.text,
      values: [key, capacity, refillMs],
    })
    const row = rows[0]
    if (row === undefined) throw new Error('the take returned no row')
    if (row.allowed) return { allowed: true, remaining: Math.floor(row.tokens), retryAfterMs: 0 }
    return { allowed: false, remaining: 0, retryAfterMs: Math.ceil((1 - row.tokens) * refillMs) }
  }

  return {
    async take(key, bucket) {
      assertBucket(bucket)
      if (++takesSinceSweep >= sweepEvery && !closed) {
        takesSinceSweep = 0
        sweeping = withStoreTimeout('sweep', pool.query(named.sweep.text), timeoutMs).catch(() => undefined)
      }
      return withStoreTimeout('take', take(key, bucket.capacity, bucket.refillMs), timeoutMs)
    },
    async close() {
      closed = true
      await sweeping
      await release()
    },
  }
}

function statements(table: string) {
  const t = `"${table}"`
  const now = 'extract(epoch FROM clock_timestamp()) * 1000'
  // The row as it was (b) refilled to this take's time (excluded.at), then the token taken.
  const refilled = 'least($2::float8, b.tokens + greatest(0, excluded.at - b.at) / $3::float8)'
  const taken = `CASE WHEN ${refilled} >= 1 THEN 1 ELSE 0 END`
  return {
    // The advisory lock serialises creation, which IF NOT EXISTS alone does not under concurrency.
    create: `SELECT pg_advisory_xact_lock(hashtext('tessera_rate_limits_create:' || '${table}'));
      CREATE TABLE IF NOT EXISTS ${t} (
        key text PRIMARY KEY,
        tokens double precision NOT NULL,
        at double precision NOT NULL,
        full_at double precision NOT NULL,
        allowed boolean NOT NULL
      );
      CREATE INDEX IF NOT EXISTS "${table}_full_at" ON ${t} (full_at);`,
    calls: {
      // A take that waited for another's row lock counts from the later of the two times, so the
      // time between them is never refilled twice.
      take: `INSERT INTO ${t} AS b (key, tokens, at, full_at, allowed)
        SELECT $1, $2::float8 - 1, clock.now, clock.now + $3::float8, true
        FROM (SELECT ${now} AS now) AS clock
        ON CONFLICT (key) DO UPDATE SET
          tokens = ${refilled} - ${taken},
          at = greatest(b.at, excluded.at),
          full_at = greatest(b.at, excluded.at) + ($2::float8 - (${refilled} - ${taken})) * $3::float8,
          allowed = ${refilled} >= 1
        RETURNING tokens, allowed`,
      sweep: `DELETE FROM ${t} WHERE full_at <= ${now}`,
    },
  }
}
