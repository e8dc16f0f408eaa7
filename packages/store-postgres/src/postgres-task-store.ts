/**
 * @module postgres-task-store
 * Tasks in a PostgreSQL table, so every host that reaches the database reads and changes every
 * task. One row per task: its JSON (kept as text, exactly as written), its version and when it
 * may be forgotten (epoch ms, NULL for never). Every statement is atomic on its own: `create`
 * inserts, or takes over the row of an expired task with the same id, in one upsert; `replace` is
 * one `UPDATE … WHERE version = $2` (the row lock makes one of two writers at one version win).
 * A row past its expiry is gone for every statement; expired rows are swept at most once a minute.
 */
import {
  assertReplacement,
  positiveInteger,
  type TaskRecord,
  type TaskStore,
  withTimeout,
} from '@tessera/core/ports'
import type pg from 'pg'
import { createPool, sqlIdentifier } from './postgres-client.ts'

export interface PostgresTaskStoreOptions {
  /** Connection string; the store owns that pool and closes it. */
  connectionString?: string
  /** An existing pool; the store does not close it. */
  pool?: pg.Pool
  /** Table name (letters, digits, underscore), created if missing. Default `tessera_tasks`. */
  table?: string
  /** Bound on every call, including connecting and creating the table. Default 2000. */
  timeoutMs?: number
}

const SWEEP_EVERY_MS = 60_000

export function postgresTaskStore(options: PostgresTaskStoreOptions): TaskStore {
  const table = options.table ?? 'tessera_tasks'
  sqlIdentifier(table, 'table', 50)
  const timeoutMs = positiveInteger(options.timeoutMs ?? 2000, 'timeoutMs')
  const owned = options.pool === undefined
  const pool = options.pool ?? createPool(options.connectionString, timeoutMs, 'postgresTaskStore')
  const sql = statements(table)
  let ready: Promise<void> | undefined
  let closed = false
  let lastSweep = 0

  const ensureTable = (): Promise<void> => {
    ready ??= pool.query(sql.create).then(
      () => undefined,
      (error: unknown) => {
        ready = undefined
        throw error
      },
    )
    return ready
  }

  const call = async <T>(operation: string, body: () => Promise<T>): Promise<T> => {
    if (closed) throw new Error('postgres task store is not open')
    return withTimeout(`task store ${operation}`, ensureTable().then(body), timeoutMs)
  }

  return {
    create(task) {
      return call('create', async () => {
        const now = Date.now()
        if (now - lastSweep > SWEEP_EVERY_MS) {
          lastSweep = now
          await pool.query(sql.sweep, [now])
        }
        const values = [task.id, task.version, task.expiresAt, JSON.stringify(task), now]
        return (await pool.query(sql.insert, values)).rowCount === 1
      })
    },
    get(id) {
      return call('get', async () => {
        const row = (await pool.query<{ data: string }>(sql.select, [id, Date.now()])).rows[0]
        return row === undefined ? undefined : (JSON.parse(row.data) as TaskRecord)
      })
    },
    replace(id, version, next) {
      return call('replace', async () => {
        assertReplacement(id, version, next)
        const values = [id, version, next.version, next.expiresAt, JSON.stringify(next), Date.now()]
        return (await pool.query(sql.replace, values)).rowCount === 1
      })
    },
    async close() {
      if (closed) return
      closed = true
      if (owned) await pool.end().catch(() => undefined)
    },
  }
}

function statements(table: string) {
  const t = `"${table}"`
  const live = (now: string) => `(${t}.expires_at IS NULL OR ${t}.expires_at > ${now})`
  return {
    // The advisory lock serialises creation, which IF NOT EXISTS alone does not under concurrency.
    create: `SELECT pg_advisory_xact_lock(hashtext('tessera_tasks_create:' || '${table}'));
      CREATE TABLE IF NOT EXISTS ${t} (
        id text PRIMARY KEY,
        version bigint NOT NULL,
        expires_at bigint,
        data text NOT NULL
      );
      CREATE INDEX IF NOT EXISTS "${table}_expires_at" ON ${t} (expires_at);`,
    // A live row keeps its id; an expired one is taken over, as if it were gone.
    insert: `INSERT INTO ${t} (id, version, expires_at, data) VALUES ($1, $2, $3, $4)
      ON CONFLICT (id) DO UPDATE SET version = excluded.version, expires_at = excluded.expires_at,
        data = excluded.data
      WHERE NOT ${live('$5')}`,
    select: `SELECT data FROM ${t} WHERE id = $1 AND ${live('$2')}`,
    replace: `UPDATE ${t} SET version = $3, expires_at = $4, data = $5
      WHERE id = $1 AND version = $2 AND ${live('$6')}`,
    sweep: `DELETE FROM ${t} WHERE expires_at IS NOT NULL AND expires_at <= $1`,
  }
}
