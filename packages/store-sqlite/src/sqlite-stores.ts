/**
 * @module sqlite-stores
 * The SQLite stores of one server in one file, over one database handle: single-use records,
 * handshake-era sessions, resumable stream events, tasks and rate-limit buckets, each on a table
 * of its own. The
 * handle is opened once and closed once, when the last of the stores is closed (the server closes
 * them all in `close()`), and never when it is the caller's own `database`. It is opened for
 * `synchronous = FULL`, the level the single-use records need to survive a power loss (tasks need
 * it too), with the WAL's sync off the event loop: the single-use records, tasks, sessions and
 * events answer a write only once the sync after its commit has returned (sqlite-wal-sync.ts); a
 * rate-limit take does not wait for it, as on a file of its own.
 *
 * There is no SQLite bus: the processes of one host that share the file are the workers of one
 * `node:cluster`, and their events travel with `clusterNotificationBus()` from
 * `@tessera/core/cluster`.
 */
import {
  assertKnownOptions,
  closeTogether,
  type EventStore,
  type OptionNames,
  type RateLimitStore,
  type ReplayStore,
  type SessionStore,
  type TaskStore,
} from '@tessera/core/ports'
import { CONNECTION_OPTION_NAMES, type ConnectionOptions, openConnection } from './sqlite-connection.ts'
import { sqliteEventStore } from './sqlite-event-store.ts'
import { sqliteRateLimitStore } from './sqlite-rate-limit-store.ts'
import { sqliteReplayStore } from './sqlite-replay-store.ts'
import { sqliteSessionStore } from './sqlite-session-store.ts'
import { sqliteTaskStore } from './sqlite-task-store.ts'

/** The file (or handle) `sqliteStores` keeps every store in, and the prefix of their tables. */
export interface SqliteStoresOptions extends ConnectionOptions {
  /**
   * Prefix of the table names (letters, digits, underscore): `<prefix>single_use`,
   * `<prefix>sessions`, `<prefix>stream_events` (and `<prefix>stream_events_streams`), `<prefix>tasks`,
   * `<prefix>rate_limits`.
   * Default `tessera_`.
   */
  prefix?: string
}

const STORES_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  prefix: true,
} as const satisfies OptionNames<SqliteStoresOptions>

/** What `sqliteStores` builds: pass it as `stores` to `createServer`. */
export interface SqliteStores {
  /** Single-use records, in `<prefix>single_use`. */
  replay: ReplayStore
  /** Handshake-era sessions, in `<prefix>sessions`. */
  sessions: SessionStore
  /** Events of resumable handshake-era streams, in `<prefix>stream_events`. */
  events: EventStore
  /** Tasks, in `<prefix>tasks`. */
  tasks: TaskStore
  /** Rate-limit buckets, in `<prefix>rate_limits`. */
  rateLimits: RateLimitStore
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
  if (typeof prefix !== 'string' || !PREFIX.test(prefix)) throw new TypeError(`invalid prefix: ${prefix}`)
  // FULL: the level single-use records and tasks need to survive a power loss.
  const { db: database, release } = openConnection(options, 'sqliteStores', { synchronous: 'FULL' })
  try {
    // Each store creates its tables on the shared handle as it is built.
    return closeTogether(
      {
        replay: sqliteReplayStore({ database, table: `${prefix}single_use` }),
        sessions: sqliteSessionStore({ database, table: `${prefix}sessions` }),
        events: sqliteEventStore({ database, table: `${prefix}stream_events` }),
        tasks: sqliteTaskStore({ database, table: `${prefix}tasks` }),
        rateLimits: sqliteRateLimitStore({ database, table: `${prefix}rate_limits` }),
      },
      release,
    )
  } catch (error) {
    void release()
    throw error
  }
}
