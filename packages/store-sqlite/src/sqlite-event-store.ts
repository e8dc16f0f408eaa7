/**
 * @module sqlite-event-store
 * The message log behind resumable SSE streams of the handshake era (2025-11-25), in one SQLite
 * file, so a client whose connection to one process broke resumes on any other process of the
 * host. Two tables: the events (stream, seq, message JSON or NULL for the priming event,
 * created ms) and one row per stream (its last seq, whether it finished, when it last changed).
 * An event id is core's `formatEventId(streamId, seq)`, exactly what the client echoes in
 * `Last-Event-ID`, and is read back with core's `parseEventId`, so every store agrees on which ids
 * name an event.
 *
 * `append` allocates the next seq and trims the stream inside one `BEGIN IMMEDIATE`
 * transaction, so processes appending to one stream at once never mint the same id. A replay
 * reads the backlog, then polls every `pollMs` for new rows (appends made through this very
 * store wake it at once) until the stream finishes, the signal aborts or the store closes.
 * A stream unchanged for `streamTtlMs` is unknown to replays, and its rows are swept now and
 * then by `append`.
 */
import {
  assertKnownOptions,
  assertStreamId,
  createFollowerWakeups,
  type EventStore,
  formatEventId,
  type OptionNames,
  parseEventId,
  positiveInteger,
  type StoredEvent,
} from '@tessera/core/ports'
import type Database from 'better-sqlite3'
import {
  CONNECTION_OPTION_NAMES,
  type ConnectionOptions,
  durableWrites,
  openConnection,
  sqlIdentifier,
} from './sqlite-connection.ts'

/**
 * The file or handle of `sqliteEventStore`, its tables, and how much of each stream it keeps and for how
 * long.
 */
export interface SqliteEventStoreOptions extends ConnectionOptions {
  /** Name of the events table (letters, digits, underscore); streams go in `<table>_streams`. Default `tessera_events`. */
  table?: string
  /** Events kept per stream (default 1000; older ones are dropped). */
  maxEventsPerStream?: number
  /** A stream expires this long after its last event or its end (default 1 hour). */
  streamTtlMs?: number
  /** How often a replay looks for events appended by another process (default 25 ms). */
  pollMs?: number
  /**
   * SQLite `synchronous` level. NORMAL (default) is safe from corruption under WAL and may lose
   * the last events on a power loss only, which a resumable stream can afford. Ignored with
   * `database`.
   */
  synchronous?: 'FULL' | 'NORMAL'
  /** Delete expired streams once this many appends have been made since the last sweep. Default 256. */
  sweepEvery?: number
}

const EVENT_STORE_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  table: true,
  maxEventsPerStream: true,
  streamTtlMs: true,
  pollMs: true,
  synchronous: true,
  sweepEvery: true,
} as const satisfies OptionNames<SqliteEventStoreOptions>

/** Rows read per query of a replay. */
const BATCH = 100

interface StreamRow {
  finished: number
}

interface EventRow {
  seq: number
  message: string | null
}

/**
 * An EventStore in one SQLite file: a handshake-era stream cut on one process of the host resumes on any
 * other.
 */
export function sqliteEventStore(options: SqliteEventStoreOptions): EventStore {
  assertKnownOptions(options, EVENT_STORE_OPTION_NAMES, 'sqliteEventStore', { required: true })
  const table = sqlIdentifier(options.table ?? 'tessera_events', 'table')
  const maxEvents = positiveInteger(options.maxEventsPerStream ?? 1000, 'maxEventsPerStream')
  const ttlMs = positiveInteger(options.streamTtlMs ?? 60 * 60_000, 'streamTtlMs')
  const pollMs = positiveInteger(options.pollMs ?? 25, 'pollMs')
  const sweepEvery = positiveInteger(options.sweepEvery ?? 256, 'sweepEvery')
  const { db, release } = openConnection(options, 'sqliteEventStore', {
    synchronous: options.synchronous ?? 'NORMAL',
  })
  let sql: ReturnType<typeof prepareStatements>
  try {
    ensureSchema(db, table)
    sql = prepareStatements(db, table)
  } catch (error) {
    void release()
    throw error
  }
  /** Replays of this store waiting for their next poll, by stream: woken early by a local append. */
  const wakeups = createFollowerWakeups(pollMs)
  // The first append sweeps what earlier runs left behind.
  let appendsSinceSweep = sweepEvery - 1
  let closed = false

  const add = db.transaction((streamId: string, message: string | null): number => {
    const now = Date.now()
    const { last_seq: seq } = sql.next.get({ stream: streamId, now }) as { last_seq: number }
    sql.insert.run(streamId, seq, message, now)
    if (seq > maxEvents) sql.trim.run(streamId, seq - maxEvents)
    return seq
  })

  const sweep = db.transaction((limit: number) => {
    sql.sweepEvents.run(limit)
    sql.sweepStreams.run(limit)
  })

  const assertOpen = () => {
    if (closed) throw new Error('sqlite event store is not open')
  }
  const durable = durableWrites(db)

  /** The stream while it lives, read before its rows: when it says finished, every event is there. */
  const liveStream = (streamId: string) =>
    sql.stream.get(streamId, Date.now() - ttlMs) as StreamRow | undefined

  return {
    async append(streamId, message) {
      assertOpen()
      assertStreamId(streamId)
      if (++appendsSinceSweep >= sweepEvery) {
        appendsSinceSweep = 0
        sweep.immediate(Date.now() - ttlMs)
      }
      const seq = add.immediate(streamId, message === undefined ? null : JSON.stringify(message))
      await durable(undefined)
      wakeups.wake(streamId)
      return formatEventId(streamId, seq)
    },
    async finish(streamId) {
      assertOpen()
      assertStreamId(streamId)
      sql.finish.run({ stream: streamId, now: Date.now() })
      await durable(undefined)
      wakeups.wake(streamId)
    },
    async replay(eventId, onEvent, signal) {
      assertOpen()
      const parsed = parseEventId(eventId)
      if (parsed === undefined) return undefined
      const { streamId } = parsed
      let cursor = parsed.seq
      if (liveStream(streamId) === undefined) return undefined
      while (!signal.aborted && !closed) {
        const stream = liveStream(streamId)
        // Expired (or swept) while followed: nothing more will come.
        if (stream === undefined) break
        for (;;) {
          const rows = sql.after.all(streamId, cursor, BATCH) as EventRow[]
          for (const row of rows) {
            cursor = row.seq
            const message =
              row.message === null ? undefined : (JSON.parse(row.message) as StoredEvent['message'])
            onEvent({ id: formatEventId(streamId, row.seq), message })
          }
          if (rows.length < BATCH || closed) break
        }
        if (stream.finished === 1 || signal.aborted || closed) break
        await wakeups.pause(streamId, signal)
      }
      return streamId
    },
    async close() {
      closed = true
      wakeups.wakeAll()
      await release()
    },
  }
}

function ensureSchema(db: Database.Database, table: string): void {
  const events = `"${table}"`
  const streams = `"${table}_streams"`
  db.exec(`CREATE TABLE IF NOT EXISTS ${events} (
    stream TEXT NOT NULL,
    seq INTEGER NOT NULL,
    message TEXT,
    created INTEGER NOT NULL,
    PRIMARY KEY (stream, seq)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS ${streams} (
    stream TEXT PRIMARY KEY NOT NULL,
    last_seq INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    updated INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS "${table}_streams_updated" ON ${streams} (updated);`)
}

function prepareStatements(db: Database.Database, table: string) {
  const events = `"${table}"`
  const streams = `"${table}_streams"`
  return {
    next: db.prepare(
      `INSERT INTO ${streams} (stream, last_seq, finished, updated) VALUES (@stream, 1, 0, @now)
       ON CONFLICT (stream) DO UPDATE SET last_seq = last_seq + 1, updated = @now
       RETURNING last_seq`,
    ),
    insert: db.prepare(`INSERT INTO ${events} (stream, seq, message, created) VALUES (?, ?, ?, ?)`),
    trim: db.prepare(`DELETE FROM ${events} WHERE stream = ? AND seq <= ?`),
    finish: db.prepare(
      `INSERT INTO ${streams} (stream, last_seq, finished, updated) VALUES (@stream, 0, 1, @now)
       ON CONFLICT (stream) DO UPDATE SET finished = 1, updated = @now`,
    ),
    stream: db.prepare(`SELECT finished FROM ${streams} WHERE stream = ? AND updated >= ?`),
    after: db.prepare(`SELECT seq, message FROM ${events} WHERE stream = ? AND seq > ? ORDER BY seq LIMIT ?`),
    sweepEvents: db.prepare(
      `DELETE FROM ${events} WHERE stream IN (SELECT stream FROM ${streams} WHERE updated < ?)`,
    ),
    sweepStreams: db.prepare(`DELETE FROM ${streams} WHERE updated < ?`),
  }
}
