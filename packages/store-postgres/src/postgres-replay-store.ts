/**
 * @module postgres-replay-store
 * A ReplayStore in a PostgreSQL table, shared by every host that reaches the database.
 * A claim is one `INSERT … ON CONFLICT DO UPDATE … WHERE <expired>` statement: the
 * unique key serialises concurrent claims, and the row lock makes the expiry check and
 * the takeover one step. Leases use the server's clock (now()), so client clocks do not matter;
 * a claim's deadline is checked on that clock inside the same statement, and so is its epoch
 * (a row of the same table, so whatever empties or drops the table takes the epoch with it).
 */
import {
  assertClaimArguments,
  assertKnownOptions,
  type ClaimResult,
  claimDeadline,
  newEpoch,
  newFence,
  type OptionNames,
  positiveInteger,
  type ReplayRecordView,
  type ReplayStore,
  withStoreTimeout,
} from '@tessera/core/ports'
import type pg from 'pg'
import {
  CONNECTION_OPTION_NAMES,
  type ConnectionOptions,
  openConnection,
  type PreparedStatement,
  prepared,
  prepareSchema,
  sqlIdentifier,
} from './postgres-connection.ts'

/** The pool of `postgresReplayStore`, its table, the bound on its calls and its sweeping. */
export interface PostgresReplayStoreOptions extends ConnectionOptions {
  /** Table name (letters, digits, underscore), created if missing. Default `tessera_replay`. */
  table?: string
  /** Bound on every call, including connecting and creating the table. Default 2000. */
  timeoutMs?: number
  /** Delete expired rows once this many claims have been made since the last sweep. Default 256. */
  sweepEvery?: number
}

const REPLAY_STORE_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  table: true,
  timeoutMs: true,
  sweepEvery: true,
} as const satisfies OptionNames<PostgresReplayStoreOptions>

const CLAIM_ATTEMPTS = 5

interface Existing {
  status: 'in_progress' | 'done'
  what: string
  outcome: string | null
  live: boolean
}

/**
 * A ReplayStore in a PostgreSQL table, for the single-use records of every host that reaches the database.
 */
export function postgresReplayStore(options: PostgresReplayStoreOptions): ReplayStore {
  assertKnownOptions(options, REPLAY_STORE_OPTION_NAMES, 'postgresReplayStore', { required: true })
  const table = sqlIdentifier(options.table ?? 'tessera_replay', 'table')
  const timeoutMs = positiveInteger(options.timeoutMs ?? 2000, 'timeoutMs')
  const sweepEvery = positiveInteger(options.sweepEvery ?? 256, 'sweepEvery')
  const { pool, release } = openConnection(options, 'postgresReplayStore', { timeoutMs })
  const sql = statements(`"${table}"`)
  const named = prepared('tessera_replay', table, sql.calls)
  const ensureSchema = prepareSchema(pool, sql.create(table))
  let claimsSinceSweep = 0
  let sweeping: Promise<unknown> = Promise.resolve()
  let closed = false

  // A closed store refuses even on a pool that stays open (a borrowed or shared one).
  // Every call is a prepared statement: the claim's statement is planned once per connection.
  const query = async <R extends pg.QueryResultRow>(
    statement: PreparedStatement,
    values: unknown[],
  ): Promise<pg.QueryResult<R>> => {
    if (closed) throw new Error('postgres replay store is not open')
    await ensureSchema()
    return pool.query<R>({ name: statement.name, text: statement.text, values })
  }

  const bounded = <T>(operation: string, body: () => Promise<T>): Promise<T> =>
    withStoreTimeout(operation, body(), timeoutMs)

  const claimOnce = async (
    key: string,
    what: string,
    leaseMs: number,
    ttlMs: number,
    deadline: number,
    epoch: string | undefined,
  ): Promise<ClaimResult | undefined> => {
    const fence = newFence()
    const values = [key, what, fence, leaseMs, ttlMs, deadline, epoch ?? null]
    type Claimed = { on_time: boolean; same_epoch: boolean; taken: boolean; previous: string | null }
    const [row] = (await query<Claimed>(named.claim, values)).rows
    if (row?.on_time === false) return { kind: 'late' }
    if (row?.same_epoch === false) return { kind: 'stale' }
    if (row?.taken) return row.previous ? claimed(fence, true) : claimed(fence, false)
    const existing = (await query<Existing>(named.existing, [key])).rows[0]
    // Released or expired between the two statements: the claim is worth another try.
    if (!existing || (existing.status === 'in_progress' && !existing.live)) return undefined
    if (existing.status === 'done')
      return { kind: 'done', what: existing.what, outcome: existing.outcome ?? '' } as const
    return { kind: 'in_progress', what: existing.what } as const
  }

  const sweepNow = (): void => {
    claimsSinceSweep = 0
    sweeping = bounded('sweep', () => query(named.sweep, [])).catch(() => undefined)
  }

  return {
    async claim(key, what, leaseMs, ttlMs, conditions): Promise<ClaimResult> {
      assertClaimArguments(key, leaseMs, ttlMs, conditions)
      if (++claimsSinceSweep >= sweepEvery) sweepNow()
      // Its own timeout bounds the claim too: whichever gives up first sets the deadline.
      const until = claimDeadline(timeoutMs, conditions?.deadline)
      const epoch = conditions?.epoch
      return bounded('claim', async () => {
        for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
          const result = await claimOnce(key, what, Math.ceil(leaseMs), Math.ceil(ttlMs), until, epoch)
          if (result) return result
        }
        throw new Error('the record kept changing under the claim')
      })
    },
    epoch: () =>
      bounded('epoch', async () => {
        // A statement that lost the race to make the row may not see it (its snapshot is older):
        // the next statement does.
        for (let attempt = 0; attempt < 3; attempt++) {
          const [row] = (await query<{ epoch: string }>(named.epoch, [newEpoch()])).rows
          if (row !== undefined) return row.epoch
        }
        throw new Error('the epoch row could not be read')
      }),
    renew: (key, fence, leaseMs) =>
      bounded(
        'renew',
        async () => (await query(named.renew, [key, fence, Math.ceil(leaseMs)])).rowCount === 1,
      ),
    complete: (key, fence, outcome) =>
      bounded('complete', async () => (await query(named.complete, [key, fence, outcome])).rowCount === 1),
    release: (key, fence) =>
      bounded('release', async () => {
        await query(named.release, [key, fence])
      }),
    inspect: (key) =>
      bounded('inspect', async (): Promise<ReplayRecordView | undefined> => {
        const row = (await query<Existing>(named.inspect, [key])).rows[0]
        if (!row) return undefined
        if (row.status === 'done') return { status: 'done', what: row.what, outcome: row.outcome ?? '' }
        return { status: row.live ? 'in_progress' : 'abandoned', what: row.what }
      }),
    async close() {
      closed = true
      await sweeping
      await release()
    },
  }
}

function claimed(fence: string, abandoned: boolean): ClaimResult {
  return abandoned ? { kind: 'claimed', fence, previous: 'abandoned' } : { kind: 'claimed', fence }
}

/** The epoch's row: record keys are nonces (base64url) and `dpop:…` keys, and none starts with ':'. */
const EPOCH_KEY = ':epoch'

function statements(t: string) {
  const ms = (parameter: string) => `(${parameter}::double precision * interval '1 millisecond')`
  return {
    // The advisory lock serialises creation, which IF NOT EXISTS alone does not under concurrency.
    create: (name: string) => `SELECT pg_advisory_xact_lock(hashtext('tessera_replay_create:' || '${name}'));
      CREATE TABLE IF NOT EXISTS ${t} (
        key text PRIMARY KEY,
        what text NOT NULL,
        status text NOT NULL CHECK (status IN ('in_progress', 'done')),
        fence text NOT NULL,
        lease_until timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        outcome text,
        previous text
      );
      CREATE INDEX IF NOT EXISTS "${name}_expires_at" ON ${t} (expires_at);`,
    calls: {
      // A row of the records' own table that never expires (so no sweep takes it), made once.
      epoch: `WITH made AS (
        INSERT INTO ${t} (key, what, status, fence, lease_until, expires_at, outcome)
        VALUES ('${EPOCH_KEY}', 'epoch', 'done', '', 'infinity', 'infinity', $1)
        ON CONFLICT (key) DO NOTHING RETURNING outcome
      )
      SELECT outcome AS epoch FROM made UNION ALL SELECT outcome FROM ${t} WHERE key = '${EPOCH_KEY}' LIMIT 1`,
      // Runs only when the existing row is past its ttl or its lease: the row lock makes that check
      // and the takeover atomic. The gate holds the caller's deadline ($6, epoch ms) against the
      // server's clock as the statement runs (clock_timestamp(), not the transaction's now()), so a
      // claim that waited on a stalled server or a lock past its deadline writes nothing.
      claim: `WITH gate AS (
        SELECT clock_timestamp() <= to_timestamp($6::double precision / 1000) AS on_time,
          $7::text IS NULL OR EXISTS (SELECT 1 FROM ${t} WHERE key = '${EPOCH_KEY}' AND outcome = $7::text) AS same_epoch
      ), taken AS (
        INSERT INTO ${t} AS r (key, what, status, fence, lease_until, expires_at)
        SELECT $1, $2, 'in_progress', $3, now() + ${ms('$4')}, now() + ${ms('greatest($4::bigint, $5::bigint)')}
        FROM gate WHERE gate.on_time AND gate.same_epoch
        ON CONFLICT (key) DO UPDATE SET what = excluded.what, status = 'in_progress', fence = excluded.fence,
          lease_until = excluded.lease_until, expires_at = excluded.expires_at, outcome = NULL,
          previous = CASE WHEN r.expires_at > now() THEN 'abandoned' END
        WHERE r.expires_at <= now() OR (r.status = 'in_progress' AND r.lease_until <= now())
        RETURNING previous
      )
      SELECT gate.on_time, gate.same_epoch, EXISTS (SELECT 1 FROM taken) AS taken,
        (SELECT previous FROM taken) AS previous
      FROM gate`,
      existing: `SELECT status, what, outcome, lease_until > now() AS live FROM ${t}
      WHERE key = $1 AND expires_at > now()`,
      renew: `UPDATE ${t} SET lease_until = now() + ${ms('$3')}, expires_at = greatest(expires_at, now() + ${ms('$3')})
      WHERE key = $1 AND fence = $2 AND status = 'in_progress' AND expires_at > now()`,
      complete: `UPDATE ${t} SET status = 'done', outcome = $3 WHERE key = $1 AND fence = $2 AND expires_at > now()`,
      release: `DELETE FROM ${t} WHERE key = $1 AND fence = $2`,
      inspect: `SELECT status, what, outcome, lease_until > now() AS live FROM ${t} WHERE key = $1 AND expires_at > now()`,
      sweep: `DELETE FROM ${t} WHERE expires_at <= now()`,
    },
  }
}
