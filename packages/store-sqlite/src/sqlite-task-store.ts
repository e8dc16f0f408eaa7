/**
 * @module sqlite-task-store
 * Tasks in one SQLite file, so every process of one host reads and changes every task. One row
 * per task: its JSON, its version, its owner and when it may be forgotten (ms, NULL for never). A
 * replacement is one `UPDATE … WHERE id = ? AND version = ?` (atomic on its own: of two writers
 * at one version, one changes a row). `create` is one `BEGIN IMMEDIATE` transaction (the write
 * lock of the file, taken before anything is read): it sweeps expired rows, counts the owner's
 * rows against its bound and inserts, so no other process can insert between the count and the
 * insert. A row past its expiry is gone: reads treat it so and delete it. It runs with
 * `synchronous = FULL` by default: a task is written before its client hears of it and must
 * survive a power loss too. A table written before rows had an owner column gets the column on
 * open, filled from each row's JSON, so the tasks already stored count too.
 * better-sqlite3 is synchronous; every call runs inside an async function, so a failure is a
 * rejected promise, never a throw.
 */
import {
  assertKnownOptions,
  assertReplacement,
  type OptionNames,
  type TaskCreation,
  type TaskRecord,
  type TaskStore,
} from '@tessera/core/ports'
import type Database from 'better-sqlite3'
import {
  CONNECTION_OPTION_NAMES,
  type ConnectionOptions,
  durableWrites,
  openConnection,
  sqlIdentifier,
} from './sqlite-connection.ts'

/** The file or handle of `sqliteTaskStore`, its table and durability. */
export interface SqliteTaskStoreOptions extends ConnectionOptions {
  /** Table name (letters, digits, underscore). Default `tessera_tasks`. */
  table?: string
  /** SQLite `synchronous` level (default FULL). Ignored with `database`. */
  synchronous?: 'FULL' | 'NORMAL'
}

const TASK_STORE_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  table: true,
  synchronous: true,
} as const satisfies OptionNames<SqliteTaskStoreOptions>

/** A TaskStore in one SQLite file: every process of one host reads and changes every task. */
export function sqliteTaskStore(options: SqliteTaskStoreOptions): TaskStore {
  assertKnownOptions(options, TASK_STORE_OPTION_NAMES, 'sqliteTaskStore', { required: true })
  const table = sqlIdentifier(options.table ?? 'tessera_tasks', 'table')
  const { db, release } = openConnection(options, 'sqliteTaskStore', {
    synchronous: options.synchronous ?? 'FULL',
  })
  let sql: ReturnType<typeof prepareStatements>
  try {
    ensureSchema(db, table)
    sql = prepareStatements(db, table)
  } catch (error) {
    void release()
    throw error
  }
  let closed = false
  const assertOpen = () => {
    if (closed) throw new Error('sqlite task store is not open')
  }
  const durable = durableWrites(db)
  const create = db.transaction((task: TaskRecord, json: string, max: number | undefined): TaskCreation => {
    const now = Date.now()
    sql.sweep.run(now)
    if (max !== undefined && (sql.countOwned.get(task.owner, now) as number) >= max)
      return sql.exists.get(task.id) === undefined ? 'owner-full' : 'taken'
    const inserted = sql.insert.run(task.id, task.version, task.owner, task.expiresAt, json)
    return inserted.changes === 1 ? 'created' : 'taken'
  })

  return {
    async create(task, limits) {
      assertOpen()
      return durable(create.immediate(task, JSON.stringify(task), limits?.maxPerOwner))
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
        next.owner,
        next.expiresAt,
        JSON.stringify(next),
        id,
        version,
        Date.now(),
      )
      return durable(changed.changes === 1)
    },
    async close() {
      closed = true
      await release()
    },
  }
}

/**
 * Creates the table, or brings one of an earlier version up to date, in one `BEGIN IMMEDIATE`
 * transaction: two processes opening the file at once never both add the column. The fill runs
 * on every open (it is an index lookup when nothing is missing): a row a process of the earlier
 * version wrote since gets its owner too.
 */
function ensureSchema(db: Database.Database, table: string): void {
  const t = `"${table}"`
  db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS ${t} (
      id TEXT PRIMARY KEY NOT NULL,
      version INTEGER NOT NULL,
      owner TEXT,
      expires_at INTEGER,
      data TEXT NOT NULL
    ) WITHOUT ROWID;`)
    const columns = db.prepare(`PRAGMA table_info(${t})`).all() as { name: string }[]
    if (!columns.some((column) => column.name === 'owner')) db.exec(`ALTER TABLE ${t} ADD COLUMN owner TEXT`)
    db.exec(`CREATE INDEX IF NOT EXISTS "${table}_expires_at" ON ${t} (expires_at);
      CREATE INDEX IF NOT EXISTS "${table}_owner_expires_at" ON ${t} (owner, expires_at);
      UPDATE ${t} SET owner = json_extract(data, '$.owner') WHERE owner IS NULL;`)
  }).immediate()
}

function prepareStatements(db: Database.Database, table: string) {
  const t = `"${table}"`
  const live = '(expires_at IS NULL OR expires_at > ?)'
  return {
    insert: db.prepare(
      `INSERT OR IGNORE INTO ${t} (id, version, owner, expires_at, data) VALUES (?, ?, ?, ?, ?)`,
    ),
    countOwned: db.prepare(`SELECT count(*) FROM ${t} WHERE owner = ? AND ${live}`).pluck(),
    exists: db.prepare(`SELECT 1 FROM ${t} WHERE id = ?`),
    select: db.prepare(`SELECT data FROM ${t} WHERE id = ? AND ${live}`),
    replace: db.prepare(
      `UPDATE ${t} SET version = ?, owner = ?, expires_at = ?, data = ? WHERE id = ? AND version = ? AND ${live}`,
    ),
    sweep: db.prepare(`DELETE FROM ${t} WHERE expires_at IS NOT NULL AND expires_at <= ?`),
    deleteExpired: db.prepare(`DELETE FROM ${t} WHERE id = ? AND expires_at IS NOT NULL AND expires_at <= ?`),
  }
}
