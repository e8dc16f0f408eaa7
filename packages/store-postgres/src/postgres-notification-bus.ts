/**
 * @module postgres-notification-bus
 * The server event bus over PostgreSQL LISTEN/NOTIFY, for several hosts sharing one database: a
 * resource updated on one host reaches listen and GET streams held by the others, and a
 * handshake-era client's answer, cancel or DELETE reaches the host that holds the session's
 * request.
 *
 * Everything but the transport is core's bus relay (`createBusRelay`): the wire message (whose
 * per-bus sequence number also keeps NOTIFY from merging two identical events of one batch), the
 * validation of what arrives, the echo filter, local delivery, listeners isolated from each
 * other. This module only moves the relay's text. One client of the pool is held for LISTEN; when
 * its connection fails the error goes to `onError` and the bus listens again on a new one, with a
 * bounded backoff (events sent by the others in between are lost, as with any pub/sub). Sends go
 * out in order, in batches of one statement each. A NOTIFY payload must be shorter than 8000
 * bytes: a larger event is delivered on this host only, and reported to `onError`.
 */
import {
  assertKnownOptions,
  createBusRelay,
  type NotificationBus,
  type OptionNames,
  positiveInteger,
  withTimeout,
} from '@tessera/core/ports'
import type pg from 'pg'
import {
  CONNECTION_OPTION_NAMES,
  type ConnectionOptions,
  openConnection,
  sqlIdentifier,
} from './postgres-connection.ts'

/**
 * The pool of `postgresNotificationBus` (it holds one of its clients for LISTEN), its channel, who
 * hears of its failures, and the bound on its calls.
 */
export interface PostgresNotificationBusOptions extends ConnectionOptions {
  /** The channel every host of one server shares (letters, digits, underscore). Default `tessera_bus`. */
  channel?: string
  /**
   * Called when PostgreSQL fails, an event cannot be sent, a listener throws or an unreadable
   * notification arrives; events still reach this host's own listeners.
   */
  onError?: (error: Error) => void
  /** Bound on connecting, on LISTEN and on each send. Default 2000. */
  timeoutMs?: number
}

const BUS_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  channel: true,
  onError: true,
  timeoutMs: true,
} as const satisfies OptionNames<PostgresNotificationBusOptions>

/** The server event bus over LISTEN/NOTIFY, with a way to wait until it listens. */
export interface PostgresNotificationBus extends NotificationBus {
  /** Resolves once the bus listens (again, after a lost connection); rejects once it is closed. */
  ready(): Promise<void>
  /** Sends what is queued, UNLISTENs and releases its client (and the pool, when owned). */
  close(): Promise<void>
}

/** NOTIFY refuses a payload of 8000 bytes or more (default build). */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7999

/** Payloads sent per statement. */
const BATCH = 100
/** Events waiting to be sent at most; beyond it (the database is down or slow) new ones stay local. */
const MAX_PENDING = 10_000
const BACKOFF_FIRST_MS = 100
const BACKOFF_MAX_MS = 5_000

/**
 * The server event bus over PostgreSQL LISTEN/NOTIFY: what one host publishes reaches the listeners of every
 * other.
 */
export function postgresNotificationBus(options: PostgresNotificationBusOptions): PostgresNotificationBus {
  assertKnownOptions(options, BUS_OPTION_NAMES, 'postgresNotificationBus', { required: true })
  const channel = sqlIdentifier(options.channel ?? 'tessera_bus', 'channel')
  const timeoutMs = positiveInteger(options.timeoutMs ?? 2000, 'timeoutMs')
  const { pool, release } = openConnection(options, 'postgresNotificationBus', {
    timeoutMs,
    statementTimeout: false,
  })
  const report = (error: unknown) => {
    try {
      options.onError?.(error instanceof Error ? error : new Error(String(error)))
    } catch {
      // A failing error handler must not break the bus.
    }
  }

  let closed = false
  /** The client holding LISTEN, while it does. */
  let listener: pg.PoolClient | undefined
  /** True once LISTEN succeeded on `listener`. */
  let listening = false
  let connecting: Promise<void> | undefined
  let retry: NodeJS.Timeout | undefined
  let backoffMs = BACKOFF_FIRST_MS
  let waiting: Array<{ resolve: () => void; reject: (error: Error) => void }> = []
  const pending: string[] = []
  let sending: Promise<void> | undefined

  /** Queues one payload for the next batch, unless it cannot travel by NOTIFY. */
  const send = (payload: string) => {
    if (closed) return
    const bytes = Buffer.byteLength(payload, 'utf8')
    if (bytes > MAX_NOTIFY_PAYLOAD_BYTES) {
      report(
        new RangeError(
          `event ${typeOf(payload)} is ${bytes} bytes as a notification, over PostgreSQL's ${MAX_NOTIFY_PAYLOAD_BYTES}: delivered on this host only`,
        ),
      )
      return
    }
    if (pending.length >= MAX_PENDING) {
      report(
        new Error(
          `notification bus has ${MAX_PENDING} events waiting: ${typeOf(payload)} delivered on this host only`,
        ),
      )
      return
    }
    pending.push(payload)
    sending ??= flush()
  }

  // The relay isolates listeners: one that throws inside the driver's socket handler cannot take
  // the process down.
  const relay = createBusRelay({ send, onError: report })

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== channel || message.payload === undefined) return
    relay.receive(message.payload)
  }

  /** Drops a client whose connection failed (once) and listens again later. */
  const lose = (client: pg.PoolClient, error: Error) => {
    if (client !== listener) return
    listener = undefined
    listening = false
    detach(client)
    client.release(error)
    report(error)
    schedule()
  }

  /** Handlers of the client holding LISTEN, removed when it is dropped or handed back. */
  const handlers = new WeakMap<pg.PoolClient, { error: (error: Error) => void; end: () => void }>()

  const attach = (client: pg.PoolClient) => {
    const own = {
      error: (error: Error) => lose(client, error),
      end: () => lose(client, new Error('notification bus connection ended')),
    }
    handlers.set(client, own)
    client.on('notification', onNotification)
    client.on('error', own.error)
    client.on('end', own.end)
  }

  const detach = (client: pg.PoolClient) => {
    const own = handlers.get(client)
    handlers.delete(client)
    client.removeListener('notification', onNotification)
    // Swapped, not removed: a late error of a dropped connection must not become an uncaught one.
    client.on('error', ignore)
    if (own) {
      client.removeListener('error', own.error)
      client.removeListener('end', own.end)
    }
  }

  const schedule = () => {
    if (closed || retry !== undefined) return
    const delay = backoffMs
    backoffMs = Math.min(backoffMs * 2, BACKOFF_MAX_MS)
    retry = setTimeout(() => {
      retry = undefined
      connecting = listen().finally(() => {
        connecting = undefined
      })
    }, delay)
    retry.unref()
  }

  const listen = async (): Promise<void> => {
    let client: pg.PoolClient | undefined
    try {
      const acquiring = pool.connect()
      client = await withTimeout('notification bus connect', acquiring, timeoutMs).catch((error: unknown) => {
        // Connected too late: hand the client back.
        acquiring.then(
          (late) => late.release(),
          () => undefined,
        )
        throw error
      })
      const held = client
      attach(held)
      listener = held
      await withTimeout('notification bus LISTEN', held.query(`LISTEN "${channel}"`), timeoutMs)
      if (listener !== held) return
      listening = true
      backoffMs = BACKOFF_FIRST_MS
      for (const waiter of waiting) waiter.resolve()
      waiting = []
    } catch (error) {
      if (client === undefined) {
        report(error)
        schedule()
      } else if (client === listener) {
        lose(client, error instanceof Error ? error : new Error(String(error)))
      }
    }
  }

  const flush = async () => {
    while (pending.length > 0) {
      const batch = pending.splice(0, BATCH)
      try {
        await withTimeout(
          'notification bus send',
          pool.query('SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload', [channel, batch]),
          timeoutMs,
        )
      } catch (error) {
        report(error)
      }
    }
    sending = undefined
  }

  connecting = listen().finally(() => {
    connecting = undefined
  })

  return {
    publish: relay.publish,
    subscribe: relay.subscribe,
    ready() {
      if (closed) return Promise.reject(new Error('notification bus is closed'))
      if (listening) return Promise.resolve()
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }))
    },
    async close() {
      if (closed) return
      closed = true
      clearTimeout(retry)
      retry = undefined
      await connecting
      await sending
      for (const waiter of waiting) waiter.reject(new Error('notification bus is closed'))
      waiting = []
      const client = listener
      listener = undefined
      listening = false
      if (client) {
        detach(client)
        try {
          await withTimeout('notification bus UNLISTEN', client.query(`UNLISTEN "${channel}"`), timeoutMs)
          client.release()
          // Back in the pool, which watches it for errors itself.
          client.removeListener('error', ignore)
        } catch (error) {
          client.release(error instanceof Error ? error : true)
        }
      }
      await release()
    },
  }
}

function ignore(): void {}

/** The event type inside a payload the relay encoded, for an error message only. */
function typeOf(payload: string): string {
  try {
    return String((JSON.parse(payload) as { event?: { type?: unknown } }).event?.type)
  } catch {
    return 'event'
  }
}
