/**
 * @module redis-stores
 * Everything the instances of one server share, in one Redis, over one connection: single-use
 * records, handshake-era sessions, resumable stream events, tasks and the event bus (which
 * subscribes on a duplicate of that connection, since SUBSCRIBE takes a connection for itself; a
 * replay that follows a stream live blocks on a duplicate too). The connection is closed once,
 * when the last of the stores is closed (the server closes them all in `close()`), and never when it
 * is the caller's own client.
 */

import type { EventStore, ReplayStore, SessionStore, TaskStore } from '@tessera/core/ports'
import { assertKnownOptions, closeTogether, type OptionNames, positiveInteger } from '@tessera/core/ports'
import type { Redis } from 'ioredis'
import { closeOwned, connect } from './redis-client.ts'
import { redisEventStore } from './redis-event-store.ts'
import { type RedisNotificationBus, redisNotificationBus } from './redis-notification-bus.ts'
import { redisReplayStore } from './redis-replay-store.ts'
import { redisSessionStore } from './redis-session-store.ts'
import { redisTaskStore } from './redis-task-store.ts'

export interface RedisStoresOptions {
  /** Connection URL (`redis://…`); the stores own that connection and close it with the last of them. */
  url?: string
  /** An existing client; the stores use it and leave it open. */
  client?: Redis
  /**
   * Prefix of every key and of the channel: `<prefix>single-use:…`, `<prefix>session:…`,
   * `<prefix>events:…`, `<prefix>task:…`, channel `<prefix>bus`. Default `tessera:`.
   */
  prefix?: string
  /** Bound on every call, including connecting. Default 2000. */
  timeoutMs?: number
  /** Called when the bus fails to send or receive; events still reach this instance's own listeners. */
  onError?: (error: Error) => void
}

const STORES_OPTION_NAMES = {
  url: true,
  client: true,
  prefix: true,
  timeoutMs: true,
  onError: true,
} as const satisfies OptionNames<RedisStoresOptions>

/** What `redisStores` builds: pass it as `stores` to `createServer`. */
export interface RedisStores {
  replay: ReplayStore
  sessions: SessionStore
  events: EventStore
  tasks: TaskStore
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
 *   requestState: { keys }, // the same keys on every instance
 *   stores: redisStores({ url: process.env.REDIS_URL, prefix: 'catalogue:' }),
 * })
 * // server.close() closes the stores, and the connection with the last of them.
 * ```
 */
export function redisStores(options: RedisStoresOptions): RedisStores {
  assertKnownOptions(options, STORES_OPTION_NAMES, 'redisStores', { required: true })
  const prefix = options.prefix ?? 'tessera:'
  if (typeof prefix !== 'string') throw new TypeError('prefix must be a string')
  const timeoutMs = positiveInteger(options.timeoutMs ?? 2000, 'timeoutMs')
  const owned = options.client === undefined
  const client = options.client ?? connect(options.url, timeoutMs, 'redisStores')
  try {
    return closeTogether(
      {
        replay: redisReplayStore({ client, keyPrefix: `${prefix}single-use:`, timeoutMs }),
        sessions: redisSessionStore({ client, keyPrefix: `${prefix}session:`, timeoutMs }),
        events: redisEventStore({ client, keyPrefix: `${prefix}events:`, timeoutMs }),
        tasks: redisTaskStore({ client, keyPrefix: `${prefix}task:`, timeoutMs }),
        bus: redisNotificationBus({ client, channel: `${prefix}bus`, onError: options.onError }),
      },
      () => closeOwned(client, owned),
    )
  } catch (error) {
    if (owned) client.disconnect()
    throw error
  }
}
