/**
 * @module postgres-stores
 * Everything the hosts of one server share, in one PostgreSQL database, over one pool: single-use
 * records, handshake-era sessions, resumable stream events, tasks, rate-limit buckets (each on tables
 * of its own) and
 * the event bus (LISTEN/NOTIFY, which holds one client of the pool while it listens). The pool is
 * ended once, when the last of the stores is closed (the server closes them all in
 * `close()`), and never when it is the caller's own pool.
 */
import {
  assertKnownOptions,
  closeTogether,
  type EventStore,
  type OptionNames,
  positiveInteger,
  type RateLimitStore,
  type ReplayStore,
  type SessionStore,
  type TaskStore,
} from '@tessera/core/ports'
import { CONNECTION_OPTION_NAMES, type ConnectionOptions, openConnection } from './postgres-connection.ts'
import { postgresEventStore } from './postgres-event-store.ts'
import { type PostgresNotificationBus, postgresNotificationBus } from './postgres-notification-bus.ts'
import { postgresRateLimitStore } from './postgres-rate-limit-store.ts'
import { postgresReplayStore } from './postgres-replay-store.ts'
import { postgresSessionStore } from './postgres-session-store.ts'
import { postgresTaskStore } from './postgres-task-store.ts'

/**
 * The pool `postgresStores` shares between every store, the prefix of their tables and channel, and the
 * bound on their calls.
 */
export interface PostgresStoresOptions extends ConnectionOptions {
  /**
   * Prefix of the table names and of the channel (letters, digits, underscore):
   * `<prefix>single_use`, `<prefix>sessions`, `<prefix>stream_events` (and
   * `<prefix>stream_events_streams`), `<prefix>tasks`, `<prefix>rate_limits`, channel `<prefix>bus`. Default `tessera_`.
   */
  prefix?: string
  /** Bound on every call, including connecting and creating the tables. Default 2000. */
  timeoutMs?: number
  /** Called when the bus fails to send or receive; events still reach this host's own listeners. */
  onError?: (error: Error) => void
}

const STORES_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  prefix: true,
  timeoutMs: true,
  onError: true,
} as const satisfies OptionNames<PostgresStoresOptions>

/** What `postgresStores` builds: pass it as `stores` to `createServer`. */
export interface PostgresStores {
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
  /** The event bus, on channel `<prefix>bus`. */
  bus: PostgresNotificationBus
}

const PREFIX = /^[A-Za-z_][A-Za-z0-9_]{0,40}$|^$/

/**
 * The stores of a server whose hosts share one PostgreSQL database.
 *
 * @example
 * ```ts
 * import { createServer } from '@tessera/core'
 * import { postgresStores } from '@tessera/store-postgres'
 *
 * const server = createServer({
 *   name: 'catalogue',
 *   version: '1.0.0',
 *   // The same keys on every host, so a state sealed by one opens on all.
 *   requestState: { keys: [{ id: '2026-12', secret: process.env.STATE_KEY! }] },
 *   stores: postgresStores({ connectionString: process.env.DATABASE_URL, prefix: 'catalogue_' }),
 * })
 * // server.close() closes the stores, and ends the pool with the last of them.
 * ```
 */
export function postgresStores(options: PostgresStoresOptions): PostgresStores {
  assertKnownOptions(options, STORES_OPTION_NAMES, 'postgresStores', { required: true })
  const prefix = options.prefix ?? 'tessera_'
  if (typeof prefix !== 'string' || !PREFIX.test(prefix)) throw new TypeError(`invalid prefix: ${prefix}`)
  const timeoutMs = positiveInteger(options.timeoutMs ?? 2000, 'timeoutMs')
  const { pool, release } = openConnection(options, 'postgresStores', { timeoutMs })
  try {
    // Each store creates its tables on its first call.
    return closeTogether(
      {
        replay: postgresReplayStore({ pool, table: `${prefix}single_use`, timeoutMs }),
        sessions: postgresSessionStore({ pool, table: `${prefix}sessions`, timeoutMs }),
        events: postgresEventStore({ pool, table: `${prefix}stream_events`, timeoutMs }),
        tasks: postgresTaskStore({ pool, table: `${prefix}tasks`, timeoutMs }),
        rateLimits: postgresRateLimitStore({ pool, table: `${prefix}rate_limits`, timeoutMs }),
        // Last: it starts listening at once, and nothing after it can fail.
        bus: postgresNotificationBus({ pool, channel: `${prefix}bus`, timeoutMs, onError: options.onError }),
      },
      release,
    )
  } catch (error) {
    void release()
    throw error
  }
}
