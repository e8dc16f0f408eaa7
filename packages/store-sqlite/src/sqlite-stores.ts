/**
 * @module sqlite-stores
 * The SQLite stores of one server in one file, over one database handle: single-use records,
 * handshake-era sessions, resumable stream events and tasks, each on a table of its own. The
 * handle is opened once and closed once, when the last of the stores is closed (the server closes
 * them all in `close()`). It runs with `synchronous = FULL`, the level the single-use records
 * need to survive a power loss (tasks need it too); sessions and events share it.
 *
 * There is no SQLite bus: the processes of one host that share the file are the workers of one
 * `node:cluster`, and their events travel with `clusterNotificationBus()` from
 * `@tessera/core/cluster`.
 */
import type { EventStore, ReplayStore, SessionStore, TaskStore } from '@tessera/core/ports'
import { assertKnownOptions, closeTogether, type OptionNames } from '@tessera/core/ports'
import { openDatabase } from './sqlite-database.ts'
import { sqliteEventStore } from './sqlite-event-store.ts'
import { sqliteReplayStore } from './sqlite-replay-store.ts'
import { sqliteSessionStore } from './sqlite-session-store.ts'
import { sqliteTaskStore } from './sqlite-task-store.ts'

export interface SqliteStoresOptions {
  /** Database file; every process of the host that serves the server opens the same one. */
  path: string
  /**
   * Prefix of the table names (letters, digits, underscore): `<prefix>single_use`,
   * `<prefix>sessions`, `<prefix>stream_events` (and `<prefix>stream_events_streams`), `<prefix>tasks`.
   * Default `tessera_`.
   */
  prefix?: string
  /**
   * How long a call waits for another process's write lock. better-sqlite3 is synchronous, so
   * this wait blocks the event loop: keep it short. Default 2000.
   */
  busyTimeoutMs?: number
}

const STORES_OPTION_NAMES = {
  path: true,
  prefix: true,
  busyTimeoutMs: true,
} as const satisfies OptionNames<SqliteStoresOptions>

/** What `sqliteStores` builds: pass it as `stores` to `createServer`. */
export interface SqliteStores {
  replay: ReplayStore
  sessions: SessionStore
  events: EventStore
  tasks: TaskStore
}

const PREFIX = /^[A-Za-z_][A-Za-z0-9_]{0,40}$|^$/

/**
 * Every store a server of one host keeps in SQLite, in one file. The events of the server (list
 * changes, session traffic) cross the host's processes with `clusterNotificationBus()`.
 *
 * @example
 * ```ts
 * import { createServer } from '@tessera/core'
 * import { clusterNotificationBus } from '@tessera/core/cluster'
 * import { sqliteStores } from '@tessera/store-sqlite'
 *
 * const server = createServer({
 *   name: 'catalogue',
 *   version: '1.0.0',
 *   stores: { ...sqliteStores({ path: '/var/lib/catalogue/tessera.db' }), bus: clusterNotificationBus() },
 * })
 * // server.close() closes the stores, and the database with the last of them.
 * ```
 */
export function sqliteStores(options: SqliteStoresOptions): SqliteStores {
  assertKnownOptions(options, STORES_OPTION_NAMES, 'sqliteStores', { required: true })
  const prefix = options.prefix ?? 'tessera_'
  if (!PREFIX.test(prefix)) throw new TypeError(`invalid table prefix: ${prefix}`)
  if (typeof options.path !== 'string') throw new TypeError('sqliteStores needs a path')
  const database = openDatabase(options.path, options.busyTimeoutMs ?? 2000, 'FULL')
  const release = async () => {
    if (database.open) database.close()
  }
  try {
    return closeTogether(
      {
        replay: sqliteReplayStore({ database, table: `${prefix}single_use` }),
        sessions: sqliteSessionStore({ database, table: `${prefix}sessions` }),
        events: sqliteEventStore({ database, table: `${prefix}stream_events` }),
        tasks: sqliteTaskStore({ database, table: `${prefix}tasks` }),
      },
      release,
    )
  } catch (error) {
    database.close()
    throw error
  }
}
