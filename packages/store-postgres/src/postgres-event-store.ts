/**
 * @module postgres-event-store
 * The message log behind resumable SSE streams of the handshake era (2025-11-25), in PostgreSQL,
 * so a client whose connection to one host broke resumes on any other. Two tables: the events
 * (stream, seq, message JSON or NULL for the priming event) and one row per stream (its last seq,
 * whether it finished, when it last changed, by the server's clock). An event id is core's
 * `formatEventId(streamId, seq)`, exactly what the client echoes in `Last-Event-ID`, read back with
 * core's `parseEventId`, so every store agrees on which ids name an event.
 *
 * `append` is one statement: an upsert of the stream row `RETURNING last_seq` allocates the seq
 * (its row lock serialises appends to one stream across hosts), the event is inserted and the
 * stream trimmed to `maxEventsPerStream` alongside. A trim runs on the statement's snapshot, so
 * under concurrent appends a stream may briefly hold a few events more; the next append trims them.
 *
 * A replay reads, in one statement (one snapshot), the stream row and the next batch of events:
 * when that row says finished, every event before the end is in the batch. It then polls every
 * `pollMs` (appends and finishes made through this very store wake it at once) until the stream
 * finishes, expires, the signal aborts or the store closes. A stream unchanged for `streamTtlMs`
 * is unknown to replays, and its rows are swept now and then by `append`.
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
  withTimeout,
} from '@tessera/core/ports'
import type pg from 'pg'
import {
  CONNECTION_OPTION_NAMES,
  type ConnectionOptions,
  openConnection,
  prepareSchema,
  sqlIdentifier,
} from './postgres-connection.ts'

/** The pool of `postgresEventStore`, its tables, and how much of each stream it keeps and for how long. */
export interface PostgresEventStoreOptions extends ConnectionOptions {
  /**
   * Name of the events table (letters, digits, underscore; at most 55 characters); streams go in
   * `<table>_streams`. Both are created if missing. Default `tessera_events`.
   */
  table?: string
  /** Events kept per stream (default 1000; older ones are dropped). */
  maxEventsPerStream?: number
  /** A stream expires this long after its last event or its end (default 1 hour). */
  streamTtlMs?: number
  /** How often a replay looks for events appended by another host (default 50 ms). */
  pollMs?: number
  /** Bound on every call (and every poll of a replay), including connecting and creating the tables. Default 2000. */
  timeoutMs?: number
  /** Delete expired streams once this many appends have been made since the last sweep. Default 256. */
  sweepEvery?: number
}

const EVENT_STORE_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  table: true,
  maxEventsPerStream: true,
  streamTtlMs: true,
  pollMs: true,
  timeoutMs: true,
  sweepEvery: true,
} as const satisfies OptionNames<PostgresEventStoreOptions>

/** `<table>_streams` must stay within PostgreSQL's 63-byte identifiers. */
/** Events read per query of a replay. */
const BATCH = 100

interface PollRow {
  finished: boolean
  seq: string | null
  message: string | null
}

/** An EventStore in PostgreSQL tables: a handshake-era stream cut on one host resumes on any other. */
export function postgresEventStore(options: PostgresEventStoreOptions): EventStore {
  assertKnownOptions(options, EVENT_STORE_OPTION_NAMES, 'postgresEventStore', { required: true })
  const table = sqlIdentifier(options.table ?? 'tessera_events', 'table', 55)
  const maxEvents = positiveInteger(options.maxEventsPerStream ?? 1000, 'maxEventsPerStream')
  const ttlMs = positiveInteger(options.streamTtlMs ?? 60 * 60_000, 'streamTtlMs')
  const pollMs = positiveInteger(options.pollMs ?? 50, 'pollMs')
  const timeoutMs = positiveInteger(options.timeoutMs ?? 2000, 'timeoutMs')
  const sweepEvery = positiveInteger(options.sweepEvery ?? 256, 'sweepEvery')
  const { pool, release } = openConnection(options, 'postgresEventStore', { timeoutMs })
  const sql = statements(table, maxEvents, ttlMs, sweepEvery)
  const ensureSchema = prepareSchema(pool, sql.create)
  /** Replays of this store waiting for their next poll, by stream: woken early by a local append. */
  const wakeups = createFollowerWakeups(pollMs)
  /** Running replays and sweeps: close waits for them before it ends the pool. */
  const running = new Set<Promise<unknown>>()
  // The first append sweeps what earlier runs left behind.
  let appendsSinceSweep = sweepEvery - 1
  let closed = false

  const query = async <R extends pg.QueryResultRow>(operation: string, text: string, values: unknown[]) => {
    const result = withTimeout(
      `event store ${operation}`,
      ensureSchema().then(() => pool.query<R>(text, values)),
      timeoutMs,
    )
    return (await result).rows
  }

  const assertOpen = () => {
    if (closed) throw new Error('postgres event store is not open')
  }

  const track = <T>(promise: Promise<T>): Promise<T> => {
    running.add(promise)
    const done = () => running.delete(promise)
    promise.then(done, done)
    return promise
  }

  const sweep = () => {
    appendsSinceSweep = 0
    track(query('sweep', sql.sweep, []).catch(() => undefined))
  }

  const follow = async (
    streamId: string,
    after: number,
    onEvent: (event: StoredEvent) => void,
    signal: AbortSignal,
  ): Promise<string | undefined> => {
    let cursor = after
    let known = false
    while (!closed) {
      let rows: PollRow[]
      try {
        rows = await query<PollRow>('replay', sql.poll, [streamId, cursor])
      } catch (error) {
        if (closed) break
        throw error
      }
      // No row: unknown (or expired) at the first look; expired (or swept) while followed.
      if (rows.length === 0) return known ? streamId : undefined
      known = true
      let delivered = 0
      for (const row of rows) {
        if (row.seq === null || signal.aborted || closed) break
        cursor = Number(row.seq)
        delivered++
        const message = row.message === null ? undefined : (JSON.parse(row.message) as StoredEvent['message'])
        onEvent({ id: formatEventId(streamId, cursor), message })
      }
      if (signal.aborted) break
      // A full batch: read on at once. Otherwise every event of this snapshot is delivered.
      if (delivered === BATCH) continue
      if (rows[0]!.finished) break
      await wakeups.pause(streamId, signal)
      if (signal.aborted) break
    }
    return streamId
  }

  return {
    async append(streamId, message) {
      assertOpen()
      assertStreamId(streamId)
      if (++appendsSinceSweep >= sweepEvery) sweep()
      const text = message === undefined ? null : JSON.stringify(message)
      const [row] = await query<{ seq: string }>('append', sql.append, [streamId, text])
      wakeups.wake(streamId)
      return formatEventId(streamId, Number(row!.seq))
    },
    async finish(streamId) {
      assertOpen()
      assertStreamId(streamId)
      await query('finish', sql.finish, [streamId])
      wakeups.wake(streamId)
    },
    async replay(eventId, onEvent, signal) {
      assertOpen()
      const parsed = parseEventId(eventId)
      if (parsed === undefined) return undefined
      return track(follow(parsed.streamId, parsed.seq, onEvent, signal))
    },
    async close() {
      if (closed) return
      closed = true
      wakeups.wakeAll()
      await Promise.allSettled([...running])
      await release()
    },
  }
}

function statements(table: string, maxEvents: number, ttlMs: number, sweepEvery: number) {
  const events = `"${table}"`
  const streams = `"${table}_streams"`
  // Validated integers, inlined.
  const cutoff = `now() - interval '${ttlMs} milliseconds'`
  return {
    // The advisory lock serialises creation, which IF NOT EXISTS alone does not under concurrency.
    create: `SELECT pg_advisory_xact_lock(hashtext('tessera_events_create:' || '${table}'));
      CREATE TABLE IF NOT EXISTS ${events} (
        stream text NOT NULL,
        seq bigint NOT NULL,
        message text,
        PRIMARY KEY (stream, seq)
      );
      CREATE TABLE IF NOT EXISTS ${streams} (
        stream text PRIMARY KEY,
        last_seq bigint NOT NULL,
        finished boolean NOT NULL DEFAULT false,
        updated timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS "${table}_streams_updated" ON ${streams} (updated);`,
    // Every data-modifying part of a WITH runs to completion, read or not.
    append: `WITH s AS (
        INSERT INTO ${streams} AS r (stream, last_seq, updated) VALUES ($1, 1, now())
        ON CONFLICT (stream) DO UPDATE SET last_seq = r.last_seq + 1, updated = now()
        RETURNING last_seq
      ), added AS (
        INSERT INTO ${events} (stream, seq, message) SELECT $1, last_seq, $2 FROM s
      ), trimmed AS (
        DELETE FROM ${events} WHERE stream = $1 AND seq <= (SELECT last_seq FROM s) - ${maxEvents}
      )
      SELECT last_seq::text AS seq FROM s`,
    finish: `INSERT INTO ${streams} AS r (stream, last_seq, finished, updated) VALUES ($1, 0, true, now())
      ON CONFLICT (stream) DO UPDATE SET finished = true, updated = now()`,
    // The stream row and the next events, on one snapshot. No row: unknown or expired.
    poll: `SELECT r.finished, e.seq::text AS seq, e.message
      FROM ${streams} r LEFT JOIN LATERAL (
        SELECT seq, message FROM ${events} WHERE stream = r.stream AND seq > $2::bigint ORDER BY seq LIMIT ${BATCH}
      ) e ON true
      WHERE r.stream = $1 AND r.updated >= ${cutoff}
      ORDER BY e.seq`,
    // At most sweepEvery streams a sweep: no more can have been opened since the last one.
    // SKIP LOCKED: a stream being appended to right now is not expired, and is not waited for.
    sweep: `WITH gone AS (
        DELETE FROM ${streams} WHERE stream IN (
          SELECT stream FROM ${streams} WHERE updated < ${cutoff} ORDER BY updated LIMIT ${sweepEvery}
          FOR UPDATE SKIP LOCKED
        ) RETURNING stream
      )
      DELETE FROM ${events} WHERE stream IN (SELECT stream FROM gone)`,
  }
}
