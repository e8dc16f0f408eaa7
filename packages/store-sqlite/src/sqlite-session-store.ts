/**
 * @module sqlite-session-store
 * Handshake-era sessions (2025-11-25) in one SQLite file, so every process of one host serves
 * every session. One row per session: its JSON and when it was last used (ms). A row idle past
 * `idleMs` is gone: reads treat it so and delete it, and `create` sweeps such rows before it
 * counts the live ones against `maxSessions`. A change is read, applied with core's
 * `applySessionChange` and written back inside one `BEGIN IMMEDIATE` transaction: the write lock is
 * taken before the read, so two processes changing one session at once both keep their change.
 * better-sqlite3 is synchronous; every call runs inside an async function, so a failure is a
 * rejected promise, never a throw.
 */
import {
  applySessionChange,
  assertKnownOptions,
  type OptionNames,
  positiveInteger,
  type SessionChange,
  type SessionRecord,
  type SessionStore,
} from '@tessera/core/ports'
import type Database from 'better-sqlite3'
import {
  CONNECTION_OPTION_NAMES,
  type ConnectionOptions,
  durableWrites,
  openConnection,
  sqlIdentifier,
} from './sqlite-connection.ts'

/** The file or handle of `sqliteSessionStore`, its table, and how long and how many sessions live. */
export interface SqliteSessionStoreOptions extends ConnectionOptions {
  /** Table name (letters, digits, underscore). Default `tessera_sessions`. */
  table?: string
  /** A session unused this long ends (default 30 minutes). */
  idleMs?: number
  /** Live sessions kept at most; `create` answers false beyond it. Default: no limit. */
  maxSessions?: number
  /**
   * SQLite `synchronous` level. NORMAL (default) is safe from corruption under WAL and may lose
   * the last writes on a power loss only, which sessions (ended by a restart anyway) can afford.
   * Ignored with `database`.
   */
  synchronous?: 'FULL' | 'NORMAL'
}

const SESSION_STORE_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  table: true,
  idleMs: true,
  maxSessions: true,
  synchronous: true,
} as const satisfies OptionNames<SqliteSessionStoreOptions>

interface Row {
  data: string
  last_seen: number
}

/** A SessionStore in one SQLite file: every process of one host serves every handshake-era session. */
export function sqliteSessionStore(options: SqliteSessionStoreOptions): SessionStore {
  assertKnownOptions(options, SESSION_STORE_OPTION_NAMES, 'sqliteSessionStore', { required: true })
  const table = sqlIdentifier(options.table ?? 'tessera_sessions', 'table')
  const idleMs = positiveInteger(options.idleMs ?? 30 * 60_000, 'idleMs')
  const max =
    options.maxSessions === undefined ? undefined : positiveInteger(options.maxSessions, 'maxSessions')
  const { db, release } = openConnection(options, 'sqliteSessionStore', {
    synchronous: options.synchronous ?? 'NORMAL',
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
    if (closed) throw new Error('sqlite session store is not open')
  }
  const durable = durableWrites(db)

  // A row is live while last_seen >= now - idleMs, as in the in-memory store.
  const create = db.transaction((session: SessionRecord, json: string): boolean => {
    const now = Date.now()
    sql.sweep.run(now - idleMs)
    if (max !== undefined && (sql.count.get() as { n: number }).n >= max) return false
    sql.upsert.run(session.id, json, now)
    return true
  })

  const apply = db.transaction((id: string, change: SessionChange) => {
    const limit = Date.now() - idleMs
    const row = sql.select.get(id) as Row | undefined
    if (!row) return undefined
    if (row.last_seen < limit) {
      sql.deleteExpired.run(id, limit)
      return undefined
    }
    const session = readSession(row.data)
    applySessionChange(session, change)
    // The data only: a change is not a use, so last_seen stays as it is.
    sql.write.run(JSON.stringify(session), id)
    return session
  })

  return {
    async create(session) {
      assertOpen()
      const json = JSON.stringify(session)
      return durable(create.immediate(session, json))
    },
    async get(id) {
      assertOpen()
      const now = Date.now()
      // One statement, atomic on its own: refresh a live row and read it.
      const row = sql.touch.get(now, id, now - idleMs) as { data: string } | undefined
      if (row) return durable(readSession(row.data))
      // Absent or idle past its time: an idle row goes now (a live one is never matched here).
      sql.deleteExpired.run(id, now - idleMs)
      return undefined
    },
    async apply(id, change) {
      assertOpen()
      return durable(apply.immediate(id, change))
    },
    async delete(id) {
      assertOpen()
      const row = sql.remove.get(id) as { last_seen: number } | undefined
      return durable(row !== undefined && row.last_seen >= Date.now() - idleMs)
    },
    async count() {
      assertOpen()
      return (sql.countLive.get(Date.now() - idleMs) as { n: number }).n
    },
    async close() {
      closed = true
      await release()
    },
  }
}

function ensureSchema(db: Database.Database, table: string): void {
  db.exec(`CREATE TABLE IF NOT EXISTS "${table}" (
    id TEXT PRIMARY KEY NOT NULL,
    data TEXT NOT NULL,
    last_seen INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS "${table}_last_seen" ON "${table}" (last_seen);`)
}

function prepareStatements(db: Database.Database, table: string) {
  const t = `"${table}"`
  return {
    select: db.prepare(`SELECT data, last_seen FROM ${t} WHERE id = ?`),
    upsert: db.prepare(`INSERT OR REPLACE INTO ${t} (id, data, last_seen) VALUES (?, ?, ?)`),
    touch: db.prepare(`UPDATE ${t} SET last_seen = ? WHERE id = ? AND last_seen >= ? RETURNING data`),
    write: db.prepare(`UPDATE ${t} SET data = ? WHERE id = ?`),
    count: db.prepare(`SELECT count(*) AS n FROM ${t}`),
    countLive: db.prepare(`SELECT count(*) AS n FROM ${t} WHERE last_seen >= ?`),
    sweep: db.prepare(`DELETE FROM ${t} WHERE last_seen < ?`),
    deleteExpired: db.prepare(`DELETE FROM ${t} WHERE id = ? AND last_seen < ?`),
    remove: db.prepare(`DELETE FROM ${t} WHERE id = ? RETURNING last_seen`),
  }
}

function readSession(json: string): SessionRecord {
  const session = JSON.parse(json) as SessionRecord
  if (!Array.isArray(session.subscriptions)) session.subscriptions = []
  return session
}
