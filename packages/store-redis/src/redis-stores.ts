/**
 * @module redis-stores
 * Everything the instances of one server share, in one Redis, over one connection: single-use
 * records, handshake-era sessions, resumable stream events, tasks, rate-limit buckets and the
 * event bus (which
 * subscribes on a duplicate of that connection, since SUBSCRIBE takes a connection for itself; a
 * replay that follows a stream live blocks on a duplicate too). The connection is closed once,
 * when the last of the stores is closed (the server closes them all in `close()`), and never when it
 * is the caller's own client.
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
import { CONNECTION_OPTION_NAMES, type ConnectionOptions, openConnection } from './redis-connection.ts'
import { redisEventStore } from './redis-event-store.ts'
import { type RedisNotificationBus, redisNotificationBus } from './redis-notification-bus.ts'
import { redisRateLimitStore } from './redis-rate-limit-store.ts'
import { redisReplayStore } from './redis-replay-store.ts'
import { redisSessionStore } from './redis-session-store.ts'
import { redisTaskStore } from './redis-task-store.ts'

/**
 * The connection `redisStores` shares between every store, the prefix of their keys and the bound on their
 * calls.
 */
export interface RedisStoresOptions extends ConnectionOptions {
  /**
   * Prefix of every key and of the channel: `<prefix>single-use:…`, `<prefix>session:…`,
   * `<prefix>events:…`, `<prefix>task:…`, `<prefix>rate-limit:…`, channel `<prefix>bus`. Default
   * `tessera:`.
   */
  prefix?: string
  /** Bound on every call, including connecting. Default 2000. */
  timeoutMs?: number
  /** Called when the bus fails to send or receive; events still reach this instance's own listeners. */
  onError?: (error: Error) => void
}

const STORES_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  prefix: true,
  timeoutMs: true,
  onError: true,
} as const satisfies OptionNames<RedisStoresOptions>

/** What `redisStores` builds: pass it as `stores` to `createServer`. */
export interface RedisStores {
  /** Single-use records, under `<prefix>single-use:`. */
  replay: ReplayStore
  /** Handshake-era sessions, under `<prefix>session:`. */
  sessions: SessionStore
  /** Events of resumable handshake-era streams, under `<prefix>events:`. */
  events: EventStore
  /** Tasks, under `<prefix>task:`. */
  tasks: TaskStore
  /** Rate-limit buckets, under `<prefix>rate-limit:`. */
  rateLimits: RateLimitStore
  /** The event bus, on channel `<prefix>bus`. */
  bus: RedisNotificationBus
}

/**
 * The stores of a server whose instances share one Redis.
 *
 * @example
 * ```ts
 * import { createServer } from '@tessera/core'
 * import { redisStores } from '@tessera/store-redis'
 *
 * const server = createServer({
 *   name: 'catalogue',
 *   version: '1.0.0',
 *   // The same keys on every instance, so a state sealed by one opens on all.
 *   requestState: { keys: [{ id: '2026-12', secret: process.env.STATE_KEY! }] },
 *   stores: redisStores({ url: process.env.REDIS_URL, prefix: 'catalogue:' }),
 * })
 * // server.close() closes the stores, and the connection with the last of them.
 * ```
 */
export function redisStores(options: RedisStoresOptions): RedisStores {
  assertKnownOptions(options, STORES_OPTION_NAMES, 'redisStores', { required: true })
  const prefix = options.prefix ?? 'tessera:'
  if (typeof prefix !== 'string') throw new TypeError(`invalid prefix: ${String(prefix)}`)
  const timeoutMs = positiveInteger(options.timeoutMs ?? 2000, 'timeoutMs')
  const { client, release } = openConnection(options, 'redisStores', { timeoutMs })
  try {
    // Redis has no tables to create: each store's scripts load on their first call.
    return closeTogether(
      {
        replay: redisReplayStore({ client, keyPrefix: `${prefix}single-use:`, timeoutMs }),
        sessions: redisSessionStore({ client, keyPrefix: `${prefix}session:`, timeoutMs }),
        events: redisEventStore({ client, keyPrefix: `${prefix}events:`, timeoutMs }),
        tasks: redisTaskStore({ client, keyPrefix: `${prefix}task:`, timeoutMs }),
        rateLimits: redisRateLimitStore({ client, keyPrefix: `${prefix}rate-limit:`, timeoutMs }),
        bus: redisNotificationBus({ client, channel: `${prefix}bus`, onError: options.onError }),
      },
      release,
    )
  } catch (error) {
    void release()
    throw error
  }
}
