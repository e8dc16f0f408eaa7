/**
 * @module sqlite-database
 * Opening a database file the way every Tessera SQLite store does, so several stores (and several
 * processes) can share one file: busy_timeout first, because switching to WAL needs a lock another
 * process may hold right now; then WAL; then the durability the store asks for. A store either
 * opens its own handle (and closes it) or works on one it is given (`sqliteStores` hands one
 * handle to all three), and then leaves it open.
 */
import { nonNegativeInteger, type OptionNames } from '@tessera/core/ports'
import Database from 'better-sqlite3'

export type Synchronous = 'FULL' | 'NORMAL'

/** Table names are inlined into SQL: only plain identifiers are accepted. */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/

export function openDatabase(
  path: string,
  busyTimeoutMs: number,
  synchronous: Synchronous,
): Database.Database {
  const db = new Database(path)
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`)
    db.pragma('journal_mode = WAL')
    db.pragma(`synchronous = ${synchronous === 'FULL' ? 'FULL' : 'NORMAL'}`)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

export interface DatabaseOptions {
  /** Database file; every process that must see the data opens the same one. `:memory:` for tests. */
  path?: string
  /** An open database (its pragmas already set); the store does not close it. */
  database?: Database.Database
  /**
   * How long a call waits for another process's write lock. better-sqlite3 is synchronous,
   * so this wait blocks the event loop: keep it short. Default 2000. Ignored with `database`.
   */
  busyTimeoutMs?: number
}

/** The names of `DatabaseOptions`, part of every store's own list. */
export const DATABASE_OPTION_NAMES = {
  path: true,
  database: true,
  busyTimeoutMs: true,
} as const satisfies OptionNames<DatabaseOptions>

/** The handle a store works on, and whether the store closes it. */
export interface StoreDatabase {
  db: Database.Database
  owned: boolean
}

export function storeDatabase(
  options: DatabaseOptions,
  synchronous: Synchronous,
  owner: string,
): StoreDatabase {
  const busyTimeoutMs = nonNegativeInteger(options.busyTimeoutMs ?? 2000, 'busyTimeoutMs')
  if (options.database !== undefined) return { db: options.database, owned: false }
  if (typeof options.path !== 'string') throw new TypeError(`${owner} needs a path or a database`)
  return { db: openDatabase(options.path, busyTimeoutMs, synchronous), owned: true }
}
