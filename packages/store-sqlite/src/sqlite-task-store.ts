/**
 * @module sqlite-task-store
 * Tasks in one SQLite file, so every process of one host reads and changes every task. One row
 * per task: its JSON, its version and when it may be forgotten (ms, NULL for never). A
 * replacement is one `UPDATE … WHERE id = ? AND version = ?` (atomic on its own: of two writers
 * at one version, one changes a row). A row past its expiry is gone: reads treat it so and delete
 * it, and `create` sweeps such rows first. It runs with `synchronous = FULL` by default: a task
 * is written before its client hears of it and must survive a power loss too.
 * better-sqlite3 is synchronous; every call runs inside an async function, so a failure is a
 * rejected promise, never a throw.
 */
import { assertReplacement, type TaskRecord, type TaskStore } from '@tessera/core/ports'
import type Database from 'better-sqlite3'
import { type DatabaseOptions, IDENTIFIER, storeDatabase } from './sqlite-database.ts'

export interface SqliteTaskStoreOptions extends DatabaseOptions {
  /** Table name (letters, digits, underscore). Default `tessera_tasks`. */
  table?: string
  /** SQLite `synchronous` level (default FULL). Ignored with `database`. */
  synchronous?: 'FULL' | 'NORMAL'
}

export function sqliteTaskStore(options: SqliteTaskStoreOptions): TaskStore {
  const table = options.table ?? 'tessera_tasks'
  if (!IDENTIFIER.test(table)) throw new TypeError(`invalid table name: ${table}`)
  const { db, owned } = storeDatabase(options, options.synchronous ?? 'FULL', 'sqliteTaskStore')
  let sql: ReturnType<typeof prepareStatements>
  try {
    sql = prepareStatements(db, table)
  } catch (error) {
    if (owned) db.close()
    throw error
  }
  let closed = false
  const assertOpen = () => {
    if (closed) throw new Error('sqlite task store is not open')
  }
  const create = db.transaction((task: TaskRecord, json: string): boolean => {
    const now = Date.now()
    sql.sweep.run(now)
    return sql.insert.run(task.id, task.version, task.expiresAt, json).changes === 1
  })

  return {
    async create(task) {
      assertOpen()
      return create.immediate(task, JSON.stringify(task))
    },
    async get(id) {
      assertOpen()
      const now = Date.now()
      const row = sql.select.get(id, now) as { data: string } | undefined
      if (row !== undefined) return JSON.parse(row.data) as TaskRecord
      sql.deleteExpired.run(id, now)
      return undefined
    },
    async replace(id, version, next) {
      assertOpen()
      assertReplacement(id, version, next)
      const changed = sql.replace.run(
        next.version,
        next.expiresAt,
        JSON.stringify(next),
        id,
        version,
        Date.now(),
      )
      return changed.changes === 1
    },
    async close() {
      closed = true
      if (owned && db.open) db.close()
    },
  }
}

function prepareStatements(db: Database.Database, table: string) {
  const t = `"${table}"`
  db.exec(`CREATE TABLE IF NOT EXISTS ${t} (
    id TEXT PRIMARY KEY NOT NULL,
    version INTEGER NOT NULL,
    expires_at INTEGER,
    data TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS "${table}_expires_at" ON ${t} (expires_at);`)
  const live = '(expires_at IS NULL OR expires_at > ?)'
  return {
    insert: db.prepare(`INSERT OR IGNORE INTO ${t} (id, version, expires_at, data) VALUES (?, ?, ?, ?)`),
    select: db.prepare(`SELECT data FROM ${t} WHERE id = ? AND ${live}`),
    replace: db.prepare(
      `UPDATE ${t} SET version = ?, expires_at = ?, data = ? WHERE id = ? AND version = ? AND ${live}`,
    ),
    sweep: db.prepare(`DELETE FROM ${t} WHERE expires_at IS NOT NULL AND expires_at <= ?`),
    deleteExpired: db.prepare(`DELETE FROM ${t} WHERE id = ? AND expires_at IS NOT NULL AND expires_at <= ?`),
  }
}
