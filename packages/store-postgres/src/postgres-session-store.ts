/**
 * @module postgres-session-store
 * Handshake-era sessions (2025-11-25) in a PostgreSQL table, so every host that reaches the
 * database serves every session. One row per session: its JSON (jsonb) and when it was last used,
 * by the server's clock (now()), so host clocks do not matter. A row is live while
 * `last_seen >= now() - idleMs`; every statement tests that, so an idle session is gone even
 * before a sweep deletes it, and nothing ever brings it back.
 *
 * `apply` is one `UPDATE … SET data = <change> … RETURNING data`: the change is computed in SQL
 * with jsonb operators mirroring core's `applySessionChange`, and the row lock makes it atomic, so two
 * hosts changing one session at once both keep their change. `get` refreshes last_seen in one
 * statement; `apply` does not (a change is not a use). `create` sweeps idle rows; with
 * `maxSessions` it counts the live ones and inserts in one transaction, under an advisory lock
 * that serialises creates of every host on the table.
 */
import {
  assertKnownOptions,
  MAX_SUBSCRIPTIONS,
  type OptionNames,
  positiveInteger,
  type SessionChange,
  type SessionRecord,
  type SessionStore,
  withTimeout,
} from '@tessera/core/ports'
import type pg from 'pg'
import {
  CONNECTION_OPTION_NAMES,
  type ConnectionOptions,
  openConnection,
  prepareSchema,
  sqlIdentifier,
  transaction,
} from './postgres-connection.ts'

/** The pool of `postgresSessionStore`, its table, and how long and how many sessions live. */
export interface PostgresSessionStoreOptions extends ConnectionOptions {
  /** Table name (letters, digits, underscore), created if missing. Default `tessera_sessions`. */
  table?: string
  /** A session unused this long ends (default 30 minutes). */
  idleMs?: number
  /** Live sessions kept at most; `create` answers false beyond it. Default: no limit. */
  maxSessions?: number
  /** Bound on every call, including connecting and creating the table. Default 2000. */
  timeoutMs?: number
}

const SESSION_STORE_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  table: true,
  idleMs: true,
  maxSessions: true,
  timeoutMs: true,
} as const satisfies OptionNames<PostgresSessionStoreOptions>

/**
 * A SessionStore in a PostgreSQL table: every host that reaches the database serves every handshake-era
 * session.
 */
export function postgresSessionStore(options: PostgresSessionStoreOptions): SessionStore {
  assertKnownOptions(options, SESSION_STORE_OPTION_NAMES, 'postgresSessionStore', { required: true })
  const table = sqlIdentifier(options.table ?? 'tessera_sessions', 'table')
  const idleMs = positiveInteger(options.idleMs ?? 30 * 60_000, 'idleMs')
  const max =
    options.maxSessions === undefined ? undefined : positiveInteger(options.maxSessions, 'maxSessions')
  const timeoutMs = positiveInteger(options.timeoutMs ?? 2000, 'timeoutMs')
  const { pool, release } = openConnection(options, 'postgresSessionStore', { timeoutMs })
  const sql = statements(table, idleMs, max)
  const ensureSchema = prepareSchema(pool, sql.create)
  let closed = false

  /** Runs `body` once the table exists, bounded by timeoutMs; rejects (never throws) once closed. */
  const call = async <T>(operation: string, body: () => Promise<T>): Promise<T> => {
    if (closed) throw new Error('postgres session store is not open')
    return withTimeout(`session store ${operation}`, ensureSchema().then(body), timeoutMs)
  }

  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[]) =>
    (await pool.query<R>(text, values)).rows

  return {
    create(session) {
      return call('create', async () => {
        const values = [session.id, JSON.stringify(session)]
        if (max === undefined) return (await query(sql.insert, values)).length === 1
        return transaction(pool, async (client) => {
          // Held to the end of the transaction: one create of this table at a time, on every host.
          await client.query(sql.lock)
          return (await client.query(sql.insertBelowMax, values)).rowCount === 1
        })
      })
    },
    get(id) {
      return call('get', async () => readSession((await query<Row>(sql.touch, [id]))[0]))
    },
    apply(id, change) {
      return call('apply', async () => {
        const [text, values] = changeStatement(sql, id, change)
        return readSession((await query<Row>(text, values))[0])
      })
    },
    delete(id) {
      return call('delete', async () => (await query<{ live: boolean }>(sql.remove, [id]))[0]?.live === true)
    },
    count() {
      return call('count', async () => Number((await query<{ n: string }>(sql.count, []))[0]?.n ?? 0))
    },
    async close() {
      if (closed) return
      closed = true
      await release()
    },
  }
}

interface Row {
  data: SessionRecord
}

function readSession(row: Row | undefined): SessionRecord | undefined {
  if (!row) return undefined
  const session = row.data
  if (!Array.isArray(session.subscriptions)) session.subscriptions = []
  return session
}

/** The UPDATE for one change, with its parameters. */
function changeStatement(
  sql: ReturnType<typeof statements>,
  id: string,
  change: SessionChange,
): [string, unknown[]] {
  switch (change?.kind) {
    case 'initialized':
      return [sql.apply.initialized, [id]]
    case 'log-level':
      return [sql.apply.logLevel, [id, String(change.level)]]
    case 'subscribe':
      return [sql.apply.subscribe, [id, String(change.uri), MAX_SUBSCRIPTIONS]]
    case 'unsubscribe':
      return [sql.apply.unsubscribe, [id, String(change.uri)]]
    default:
      throw new TypeError(`unknown session change: ${String((change as { kind?: unknown })?.kind)}`)
  }
}

function statements(table: string, idleMs: number, max: number | undefined) {
  const t = `"${table}"`
  // idleMs and max are validated integers: inlined, they keep every statement's parameters plain.
  const live = `last_seen >= now() - interval '${idleMs} milliseconds'`
  const idle = `last_seen < now() - interval '${idleMs} milliseconds'`
  // The session's subscriptions as a jsonb array, whatever the stored JSON says.
  const subs = `(CASE WHEN jsonb_typeof(data->'subscriptions') = 'array' THEN data->'subscriptions' ELSE '[]'::jsonb END)`
  // A change: the idle row (if any) goes, a live one is changed in place under its row lock.
  const update = (set: string) => `WITH gone AS (DELETE FROM ${t} WHERE id = $1 AND ${idle})
    UPDATE ${t} SET data = ${set} WHERE id = $1 AND ${live} RETURNING data`
  // Idle rows go before a create; the row being created is left to its own upsert.
  const sweep = `swept AS (DELETE FROM ${t} WHERE ${idle} AND id <> $1)`
  return {
    // The advisory lock serialises creation, which IF NOT EXISTS alone does not under concurrency.
    create: `SELECT pg_advisory_xact_lock(hashtext('tessera_sessions_create:' || '${table}'));
      CREATE TABLE IF NOT EXISTS ${t} (
        id text PRIMARY KEY,
        data jsonb NOT NULL,
        last_seen timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS "${table}_last_seen" ON ${t} (last_seen);`,
    lock: `SELECT pg_advisory_xact_lock(hashtext('tessera_sessions_count:' || '${table}'))`,
    insert: `WITH ${sweep}
      INSERT INTO ${t} (id, data, last_seen) VALUES ($1, $2, now())
      ON CONFLICT (id) DO UPDATE SET data = excluded.data, last_seen = excluded.last_seen
      RETURNING 1`,
    // Run under the lock: the count sees every create committed before it, on any host.
    insertBelowMax: `WITH ${sweep},
      counted AS (SELECT count(*) AS n FROM (SELECT 1 FROM ${t} WHERE ${live} AND id <> $1 LIMIT ${max ?? 0}) l)
      INSERT INTO ${t} (id, data, last_seen) SELECT $1, $2, now() FROM counted WHERE n < ${max ?? 0}
      ON CONFLICT (id) DO UPDATE SET data = excluded.data, last_seen = excluded.last_seen
      RETURNING 1`,
    // greatest(): a get that started earlier but commits later never moves last_seen back.
    touch: `WITH gone AS (DELETE FROM ${t} WHERE id = $1 AND ${idle})
      UPDATE ${t} SET last_seen = greatest(last_seen, now()) WHERE id = $1 AND ${live} RETURNING data`,
    // Mirrors core's applySessionChange, kind by kind.
    apply: {
      initialized: update(`jsonb_set(data, '{initialized}', 'true'::jsonb)`),
      logLevel: update(`jsonb_set(data, '{logLevel}', to_jsonb($2::text))`),
      subscribe: update(`CASE
        WHEN ${subs} @> jsonb_build_array($2::text) OR jsonb_array_length(${subs}) >= $3::int
          THEN jsonb_set(data, '{subscriptions}', ${subs})
        ELSE jsonb_set(data, '{subscriptions}', ${subs} || jsonb_build_array($2::text))
      END`),
      // jsonb `-` text on an array drops every string element equal to it, keeping the order.
      unsubscribe: update(`jsonb_set(data, '{subscriptions}', ${subs} - $2::text)`),
    },
    remove: `DELETE FROM ${t} WHERE id = $1 RETURNING ${live} AS live`,
    count: `SELECT count(*) AS n FROM ${t} WHERE ${live}`,
  }
}
