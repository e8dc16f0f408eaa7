/**
 * @module postgres-task-store
 * Tasks in a PostgreSQL table, so every host that reaches the database reads and changes every
 * task. One row per task: its JSON (kept as text, exactly as written), its version, its owner and
 * when it may be forgotten (epoch ms, NULL for never). `create` inserts, or takes over the row of
 * an expired task with the same id, in one upsert. Under an owner's bound it runs in a
 * transaction that first takes a transaction-scoped advisory lock on (table, owner), then counts
 * the owner's unexpired rows and upserts in one statement: creates for one owner queue on that
 * lock, and each count, run after the lock is granted (READ COMMITTED takes a snapshot per
 * statement), sees every row the lock's earlier holders committed, so racing creates never pass
 * the bound. `replace` is one `UPDATE … WHERE version = $2` (the row lock makes one of two
 * writers at one version win). A row past its expiry is gone for every statement; expired rows
 * are swept at most once a minute. A table written before rows had an owner column gets the
 * column when the store first opens it, filled from each row's JSON, so those tasks count too.
 */
import {
  assertKnownOptions,
  assertReplacement,
  type OptionNames,
  positiveInteger,
  type TaskCreation,
  type TaskRecord,
  type TaskStore,
  withTimeout,
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
  transaction,
} from './postgres-connection.ts'

/** The pool of `postgresTaskStore`, its table and the bound on its calls. */
export interface PostgresTaskStoreOptions extends ConnectionOptions {
  /** Table name (letters, digits, underscore), created if missing. Default `tessera_tasks`. */
  table?: string
  /** Bound on every call, including connecting and creating the table. Default 2000. */
  timeoutMs?: number
}

const TASK_STORE_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  table: true,
  timeoutMs: true,
} as const satisfies OptionNames<PostgresTaskStoreOptions>

const SWEEP_EVERY_MS = 60_000

/** A TaskStore in a PostgreSQL table: every host that reaches the database reads and changes every task. */
export function postgresTaskStore(options: PostgresTaskStoreOptions): TaskStore {
  assertKnownOptions(options, TASK_STORE_OPTION_NAMES, 'postgresTaskStore', { required: true })
  const table = sqlIdentifier(options.table ?? 'tessera_tasks', 'table', 50)
  const timeoutMs = positiveInteger(options.timeoutMs ?? 2000, 'timeoutMs')
  const { pool, release } = openConnection(options, 'postgresTaskStore', { timeoutMs })
  const sql = statements(table)
  const named = prepared('tessera_tasks', table, sql.calls)
  const ensureSchema = prepareSchema(pool, sql.create)
  let closed = false
  let lastSweep = 0

  const call = async <T>(operation: string, body: () => Promise<T>): Promise<T> => {
    if (closed) throw new Error('postgres task store is not open')
    return withTimeout(`task store ${operation}`, ensureSchema().then(body), timeoutMs)
  }

  const run = <R extends pg.QueryResultRow>(
    on: pg.Pool | pg.PoolClient,
    statement: PreparedStatement,
    values: unknown[],
  ): Promise<pg.QueryResult<R>> => on.query<R>({ name: statement.name, text: statement.text, values })

  const boundedCreate = (task: TaskRecord, json: string, now: number, max: number) =>
    transaction(pool, async (client) => {
      await run(client, named.lockOwner, [task.owner])
      const values = [task.id, task.version, task.owner, task.expiresAt, json, now, max]
      const [row] = (await run<{ outcome: TaskCreation }>(client, named.insertBounded, values)).rows
      return row!.outcome
    })

  return {
    create(task, limits) {
      return call('create', async (): Promise<TaskCreation> => {
        const now = Date.now()
        if (now - lastSweep > SWEEP_EVERY_MS) {
          lastSweep = now
          await run(pool, named.sweep, [now])
        }
        const json = JSON.stringify(task)
        if (limits?.maxPerOwner !== undefined) return boundedCreate(task, json, now, limits.maxPerOwner)
        const values = [task.id, task.version, task.owner, task.expiresAt, json, now]
        return (await run(pool, named.insert, values)).rowCount === 1 ? 'created' : 'taken'
      })
    },
    get(id) {
      return call('get', async () => {
        const row = (await run<{ data: string }>(pool, named.select, [id, Date.now()])).rows[0]
        return row === undefined ? undefined : (JSON.parse(row.data) as TaskRecord)
      })
    },
    replace(id, version, next) {
      return call('replace', async () => {
        assertReplacement(id, version, next)
        const json = JSON.stringify(next)
        const values = [id, version, next.version, next.owner, next.expiresAt, json, Date.now()]
        return (await run(pool, named.replace, values)).rowCount === 1
      })
    },
    async close() {
      if (closed) return
      closed = true
      await release()
    },
  }
}

function statements(table: string) {
  const t = `"${table}"`
  const live = (now: string) => `(${t}.expires_at IS NULL OR ${t}.expires_at > ${now})`
  // A live row keeps its id; an expired one is taken over, as if it were gone.
  const takeOver = `ON CONFLICT (id) DO UPDATE SET version = excluded.version, owner = excluded.owner,
        expires_at = excluded.expires_at, data = excluded.data
      WHERE NOT ${live('$6')}`
  return {
    // The advisory lock serialises creation, which IF NOT EXISTS alone does not under concurrency.
    // The column is added only when missing: ALTER TABLE locks out every reader, even as a no-op.
    // The fill runs on every open (an index lookup when nothing is missing), so a row a process
    // of the earlier version wrote since gets its owner too.
    create: `SELECT pg_advisory_xact_lock(hashtext('tessera_tasks_create:' || '${table}'));
      CREATE TABLE IF NOT EXISTS ${t} (
        id text PRIMARY KEY,
        version bigint NOT NULL,
        owner text,
        expires_at bigint,
        data text NOT NULL
      );
      DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_attribute
            WHERE attrelid = '${t}'::regclass AND attname = 'owner' AND NOT attisdropped) THEN
          ALTER TABLE ${t} ADD COLUMN IF NOT EXISTS owner text;
        END IF;
      END $$;
      CREATE INDEX IF NOT EXISTS "${table}_expires_at" ON ${t} (expires_at);
      CREATE INDEX IF NOT EXISTS "${table}_owner" ON ${t} (owner, expires_at);
      UPDATE ${t} SET owner = data::json->>'owner' WHERE owner IS NULL;`,
    calls: {
      insert: `INSERT INTO ${t} (id, version, owner, expires_at, data) VALUES ($1, $2, $3, $4, $5)
      ${takeOver}`,
      // Its two keys (table, owner) are a key space apart from the one-key lock of creation.
      lockOwner: `SELECT pg_advisory_xact_lock(hashtext('tessera_tasks_owner:' || '${table}'), hashtext($1))`,
      // One snapshot for the count, the upsert and the answer; run under the owner's lock.
      insertBounded: `WITH counted AS (
        SELECT count(*) AS n FROM ${t} WHERE owner = $3::text AND ${live('$6::bigint')}
      ), inserted AS (
        INSERT INTO ${t} (id, version, owner, expires_at, data)
        SELECT $1::text, $2::bigint, $3::text, $4::bigint, $5::text FROM counted WHERE n < $7::numeric
        ${takeOver}
        RETURNING 1
      )
      SELECT CASE
        WHEN EXISTS (SELECT 1 FROM inserted) THEN 'created'
        WHEN (SELECT n FROM counted) < $7::numeric THEN 'taken'
        WHEN EXISTS (SELECT 1 FROM ${t} WHERE id = $1::text AND ${live('$6::bigint')}) THEN 'taken'
        ELSE 'owner-full' END AS outcome`,
      select: `SELECT data FROM ${t} WHERE id = $1 AND ${live('$2')}`,
      replace: `UPDATE ${t} SET version = $3, owner = $4, expires_at = $5, data = $6
      WHERE id = $1 AND version = $2 AND ${live('$7')}`,
      sweep: `DELETE FROM ${t} WHERE expires_at IS NOT NULL AND expires_at <= $1`,
    },
  }
}
