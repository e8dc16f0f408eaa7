/**
 * @module sqlite-connection
 * How every store of this package opens its database, so several stores (and several processes)
 * share one file: busy_timeout first, because switching to WAL needs a lock another process may
 * hold right now; then WAL (tried again while another process is switching); then the durability
 * the store asks for. A store either opens its own handle and closes it, or works on one it is
 * given (`sqliteStores` hands one handle to all four) and leaves it open. Table names are written
 * into SQL, so they are checked here too.
 */
import { nonNegativeInteger, type OptionNames } from '@tessera/core/ports'
import Database from 'better-sqlite3'

export type Synchronous = 'FULL' | 'NORMAL'

/** Where the stores keep their data: the options every factory of this package takes. */
export interface ConnectionOptions {
  /** Database file; every process that must see the data opens the same one. `:memory:` for tests. */
  path?: string
  /** An open database (its pragmas already set); the store uses it and leaves it open. */
  database?: Database.Database
  /**
   * How long a call waits for another process's write lock. better-sqlite3 is synchronous,
   * so this wait blocks the event loop: keep it short. Default 2000. Ignored with `database`.
   */
  busyTimeoutMs?: number
}

/** The names of `ConnectionOptions`, part of every factory's own list. */
export const CONNECTION_OPTION_NAMES = {
  path: true,
  database: true,
  busyTimeoutMs: true,
} as const satisfies OptionNames<ConnectionOptions>

/** The handle a store works on; `release` closes it when the store opened it, once. */
export interface StoreConnection {
  db: Database.Database
  release(): Promise<void>
}

/**
 * The database `options` name: the one given, or the file opened with `synchronous`. `owner`
 * names the factory in the TypeError of a missing path.
 */
export function openConnection(
  options: ConnectionOptions,
  owner: string,
  settings: { synchronous: Synchronous },
): StoreConnection {
  const busyTimeoutMs = nonNegativeInteger(options.busyTimeoutMs ?? 2000, 'busyTimeoutMs')
  if (options.database !== undefined) return { db: options.database, release: async () => {} }
  if (typeof options.path !== 'string') throw new TypeError(`${owner} needs a path or a database`)
  const db = openDatabase(options.path, busyTimeoutMs, settings.synchronous)
  return {
    db,
    // Synchronous until done, so a caller that does not wait still finds the handle closed.
    release: async () => {
      if (db.open) db.close()
    },
  }
}

/** Opens `path` with the pragmas every store needs, in the order that works under contention. */
export function openDatabase(
  path: string,
  busyTimeoutMs: number,
  synchronous: Synchronous,
): Database.Database {
  const db = new Database(path)
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`)
    switchToWal(db, busyTimeoutMs)
    db.pragma(`synchronous = ${synchronous === 'FULL' ? 'FULL' : 'NORMAL'}`)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

/** Between two attempts to switch to WAL: the other process's switch takes a few milliseconds. */
const WAL_RETRY_MS = 5
const pause = new Int32Array(new SharedArrayBuffer(4))

/**
 * Switches to WAL. The switch needs the file to itself and SQLite does not wait for it (the busy
 * handler is not called), so processes opening a new file at once would fail with SQLITE_BUSY:
 * it is tried again until `busyTimeoutMs` has passed, blocking as the busy timeout itself does.
 */
function switchToWal(db: Database.Database, busyTimeoutMs: number): void {
  const deadline = Date.now() + busyTimeoutMs
  for (;;) {
    try {
      db.pragma('journal_mode = WAL')
      return
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error
      Atomics.wait(pause, 0, 0, WAL_RETRY_MS)
    }
  }
}

/**
 * `name` when it can be written into SQL as a quoted identifier: a letter or underscore, then
 * letters, digits and underscores, `maxLength` at most. A TypeError naming it otherwise.
 */
export function sqlIdentifier(name: string, what: string, maxLength = 63): string {
  const pattern = new RegExp(`^[A-Za-z_][A-Za-z0-9_]{0,${maxLength - 1}}$`)
  if (typeof name !== 'string' || !pattern.test(name)) throw new TypeError(`invalid ${what} name: ${name}`)
  return name
}
