/**
 * @module sqlite-connection
 * How every store of this package opens its database, so several stores (and several processes)
 * share one file: busy_timeout first, because switching to WAL needs a lock another process may
 * hold right now; then WAL (tried again while another process is switching); then the durability
 * the store asks for. FULL on a file is kept by syncing the WAL off the event loop, which the
 * stores that keep what they acknowledge wait for before they answer a write (`durableWrites`).
 * A store either opens its own handle and closes it, or works on one it is given (`sqliteStores`
 * hands one handle to all five) and leaves it open. Table names are written into SQL, so they are
 * checked here too.
 */
import { resolve } from 'node:path'
import { nonNegativeInteger, type OptionNames } from '@tessera/core/ports'
import Database from 'better-sqlite3'
import { type WalSync, walSync } from './sqlite-wal-sync.ts'

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
  const sync = walSyncOf(db)
  return {
    db,
    // The handle closes synchronously, so a caller that does not wait still finds it closed; the
    // WAL's file goes once the sync in flight has returned.
    release: async () => {
      if (db.open) db.close()
      await sync?.close()
    },
  }
}

/** The off-loop syncs of the handles this package opened for durability (FULL on a file in WAL mode). */
const walSyncs = new WeakMap<Database.Database, WalSync>()

/**
 * How a write on `db` is made durable before it is acknowledged: the handle's off-loop sync when
 * this package opened it for durability; none for a handle given by the caller (its own pragmas
 * decide) or one opened with `synchronous = NORMAL`.
 */
export function walSyncOf(db: Database.Database): WalSync | undefined {
  return walSyncs.get(db)
}

/** A write's result, once the write is as durable as its handle promises. */
export type DurableWrites = <T>(result: T) => Promise<T>

/**
 * What a store passes each write's result through before answering: on a handle whose WAL is
 * synced off the event loop, the result once the next sync has returned, so nothing is
 * acknowledged that a power loss could take; on any other handle, the result as it is.
 */
export function durableWrites(db: Database.Database): DurableWrites {
  const sync = walSyncs.get(db)
  if (sync === undefined) return (result) => Promise.resolve(result)
  return (result) => sync.settle().then(() => result)
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
    // FULL on a file: commits skip the sync, and the stores that must not lose a write wait for
    // the WAL's sync off the event loop instead (sqlite-wal-sync.ts).
    const offLoop =
      synchronous === 'FULL' && !db.memory && db.pragma('journal_mode', { simple: true }) === 'wal'
    db.pragma(`synchronous = ${synchronous === 'FULL' && !offLoop ? 'FULL' : 'NORMAL'}`)
    if (offLoop) walSyncs.set(db, walSync(`${resolve(db.name)}-wal`))
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
