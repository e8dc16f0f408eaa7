/**
 * @module stores
 * Where a server keeps what its instances share, in one option: single-use records, handshake
 * sessions, resumable stream events, tasks and the event bus. Each store package builds all of them over
 * one connection (`sqliteStores`, `redisStores`, `postgresStores`); anything left out stays in
 * this process's memory. Each port is checked when the server is created, so a wrong object fails
 * there, naming what it lacks, instead of on some later request.
 */
import { assertKnownOptions, type OptionNames } from '../option-checks.ts'
import type { ReplayStore } from '../security/replay/replay-store.ts'
import type { EventStore } from './handshake/event-store.ts'
import type { SessionStore } from './handshake/session-store.ts'
import type { NotificationBus } from './notification-bus.ts'
import type { RateLimitStore } from './rate-limits/rate-limit-store.ts'
import type { TaskStore } from './tasks/task-store.ts'

/**
 * What a server's instances share (`ServerOptions.stores`): single-use records, handshake
 * sessions, stream events, tasks and the event bus. A store package builds them all over one
 * connection (`sqliteStores`, `redisStores`, `postgresStores`); a port left out stays in this
 * process's memory.
 */
export interface Stores {
  /** Single-use records (default: in memory, one process). */
  replay?: ReplayStore
  /** Sessions of 2025-11-25 clients (default: in memory, one process). */
  sessions?: SessionStore
  /** Events of resumable 2025-11-25 streams (default: in memory, one process). */
  events?: EventStore
  /** Tasks of tools that run as tasks (default: in memory, one process). */
  tasks?: TaskStore
  /** Change notifications and session traffic between instances (default: this process only). */
  bus?: NotificationBus
  /** The buckets of rate limits (default: in memory, one process: each instance then limits alone). */
  rateLimits?: RateLimitStore
}

const PORT_METHODS: Readonly<Record<keyof Stores, readonly string[]>> = {
  replay: ['claim', 'renew', 'complete', 'release', 'inspect', 'close'],
  sessions: ['create', 'get', 'apply', 'delete', 'close'],
  events: ['append', 'finish', 'replay', 'close'],
  tasks: ['create', 'get', 'replace', 'close'],
  bus: ['publish', 'subscribe', 'close'],
  rateLimits: ['take', 'close'],
}
const PORT_NAMES = {
  replay: true,
  sessions: true,
  events: true,
  tasks: true,
  bus: true,
  rateLimits: true,
} as const satisfies OptionNames<Stores>

export function assertStores(stores: unknown): asserts stores is Stores | undefined {
  if (stores === undefined) return
  assertKnownOptions(stores, PORT_NAMES, 'createServer', { path: 'stores' })
  for (const [name, value] of Object.entries(stores as Record<string, unknown>)) {
    const methods = PORT_METHODS[name as keyof Stores]
    if (value === undefined) continue
    const missing = methods.filter(
      (method) => typeof (value as Record<string, unknown>)?.[method] !== 'function',
    )
    if (missing.length > 0) {
      throw new TypeError(`createServer: stores.${name} has no ${missing.map((m) => `${m}()`).join(', ')}.`)
    }
  }
}

/**
 * For a store package whose stores share one connection: each store closes once (a second close
 * does nothing), and `release` runs once, after the last of them closed, so the connection
 * outlives every store that uses it. The stores keep their other members.
 */
export function closeTogether<
  T extends Record<
    string,
    {
      /** Closes the store; the connection it shares is released once the last store closed. */
      close(): Promise<void>
    }
  >,
>(stores: T, release: () => Promise<void>): T {
  let open = Object.keys(stores).length
  const wrapped: Record<string, { close(): Promise<void> }> = {}
  for (const [name, store] of Object.entries(stores)) {
    let closed = false
    const close = async () => {
      if (closed) return
      closed = true
      try {
        await store.close()
      } finally {
        if (--open === 0) await release()
      }
    }
    // The store stays the prototype: methods keep working whatever the store's own shape.
    wrapped[name] = Object.assign(Object.create(store) as { close(): Promise<void> }, { close })
  }
  return wrapped as T
}
