/**
 * @module postgres-notification-bus
 * The server event bus over PostgreSQL LISTEN/NOTIFY, for several hosts sharing one database: a
 * resource updated on one host reaches listen and GET streams held by the others, and a
 * handshake-era client's answer, cancel or DELETE reaches the host that holds the session's
 * request. Events are delivered locally at once and sent to the others with `pg_notify`; a bus
 * ignores its own echo, and events that concern one process only (`isLocalEvent`) never leave it.
 *
 * One client of the pool is held for LISTEN; when its connection fails the error goes to
 * `onError` and the bus listens again on a new one, with a bounded backoff (events sent by the
 * others in between are lost, as with any pub/sub). Sends go out in order, in batches of one
 * statement each; every payload carries a per-bus sequence number, so two identical events in
 * one batch are not merged by NOTIFY. A NOTIFY payload must be shorter than 8000 bytes: a larger
 * event is delivered on this host only, and reported to `onError`.
 */
import { randomBytes } from 'node:crypto'
import { isLocalEvent, type NotificationBus, type ServerEvent, type ServerEventListener } from '@tessera/core'
import type pg from 'pg'
import { createPool, withTimeout } from './postgres-client.ts'

export interface PostgresNotificationBusOptions {
  /** Connection string; the bus owns that pool and closes it. */
  connectionString?: string
  /** An existing pool; the bus holds one of its clients for LISTEN and does not close the pool. */
  pool?: pg.Pool
  /** The channel every host of one server shares (letters, digits, underscore). Default `tessera_bus`. */
  channel?: string
  /** Called when PostgreSQL fails or an event cannot be sent; events still reach this host's own listeners. */
  onError?: (error: Error) => void
  /** Bound on connecting, on LISTEN and on each send. Default 2000. */
  timeoutMs?: number
}

export interface PostgresNotificationBus extends NotificationBus {
  /** Resolves once the bus listens (again, after a lost connection); rejects once it is closed. */
  ready(): Promise<void>
  /** Sends what is queued, UNLISTENs and releases its client (and the pool, when owned). */
  close(): Promise<void>
}

/** NOTIFY refuses a payload of 8000 bytes or more (default build). */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7999

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/
/** Payloads sent per statement. */
const BATCH = 100
/** Events waiting to be sent at most; beyond it (the database is down or slow) new ones stay local. */
const MAX_PENDING = 10_000
const BACKOFF_FIRST_MS = 100
const BACKOFF_MAX_MS = 5_000

interface Envelope {
  origin: string
  seq: number
  event: ServerEvent
}

export function postgresNotificationBus(options: PostgresNotificationBusOptions): PostgresNotificationBus {
  const channel = options.channel ?? 'tessera_bus'
  if (!IDENTIFIER.test(channel)) throw new TypeError(`invalid channel name: ${channel}`)
  const timeoutMs = options.timeoutMs ?? 2000
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1)
    throw new RangeError('timeoutMs must be a positive integer.')
  const owned = options.pool === undefined
  const pool =
    options.pool ?? createPool(options.connectionString, timeoutMs, 'postgresNotificationBus', false)
  const origin = randomBytes(9).toString('base64url')
  const listeners = new Set<ServerEventListener>()
  const report = (error: unknown) => {
    try {
      options.onError?.(error instanceof Error ? error : new Error(String(error)))
    } catch {
      // A failing error handler must not break the bus.
    }
  }

  let seq = 0
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

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== channel || message.payload === undefined) return
    const envelope = parse(message.payload)
    if (!envelope || envelope.origin === origin || isLocalEvent(envelope.event)) return
    for (const deliver of [...listeners]) {
      try {
        deliver(envelope.event)
      } catch (error) {
        // Thrown inside the driver's socket handler it would take the process down.
        report(error)
      }
    }
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

  const deliverLocally = (event: ServerEvent) => {
    for (const deliver of listeners) deliver(event)
  }

  connecting = listen().finally(() => {
    connecting = undefined
  })

  return {
    publish(event) {
      deliverLocally(event)
      if (isLocalEvent(event) || closed) return
      const envelope: Envelope = { origin, seq: seq++, event }
      const payload = JSON.stringify(envelope)
      const bytes = Buffer.byteLength(payload, 'utf8')
      if (bytes > MAX_NOTIFY_PAYLOAD_BYTES) {
        report(
          new RangeError(
            `event ${event.type} is ${bytes} bytes as a notification, over PostgreSQL's ${MAX_NOTIFY_PAYLOAD_BYTES}: delivered on this host only`,
          ),
        )
        return
      }
      if (pending.length >= MAX_PENDING) {
        report(
          new Error(
            `notification bus has ${MAX_PENDING} events waiting: ${event.type} delivered on this host only`,
          ),
        )
        return
      }
      pending.push(payload)
      sending ??= flush()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
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
      if (owned) await pool.end().catch(() => undefined)
    },
  }
}

function ignore(): void {}

function parse(text: string): Envelope | undefined {
  try {
    const value = JSON.parse(text) as Envelope
    return typeof value?.origin === 'string' && typeof value.event?.type === 'string' ? value : undefined
  } catch {
    return undefined
  }
}
