/**
 * @module redis-event-store
 * The message log behind resumable SSE streams of the handshake era (2025-11-25), in Redis
 * Streams, so a client whose connection to one instance broke resumes on any other. One Redis
 * stream per SSE stream. Event ids follow core's one rule (`formatEventId(streamId, seq)`, read
 * back with `parseEventId`), so the entry ids are not Redis's own clock-based ones: an append is a
 * script that gives the entry the id `<seq>-0`, one more than the stream's last, atomically, so
 * instances appending to one stream at once never mint the same id. `finish` appends an end
 * marker. A replay reads the backlog with XRANGE, then follows new entries with XREAD BLOCK on its
 * own connection (a blocked connection serves nobody else), in short blocks so an abort is
 * honoured within a fraction of a second.
 */
import {
  assertKnownOptions,
  assertStreamId,
  type EventStore,
  formatEventId,
  type OptionNames,
  parseEventId,
  positiveInteger,
  type StoredEvent,
  withTimeout,
} from '@tessera/core/ports'
import type { Redis } from 'ioredis'
import {
  CONNECTION_OPTION_NAMES,
  type ConnectionOptions,
  evalScript,
  openConnection,
  script,
} from './redis-connection.ts'

/**
 * The connection of `redisEventStore`, the prefix of its keys, and how much of each stream it keeps and for
 * how long.
 */
export interface RedisEventStoreOptions extends ConnectionOptions {
  /** Prefix of every stream key. Default `tessera:events:`. */
  keyPrefix?: string
  /** Events kept per stream, approximately (MAXLEN ~). Default 1000. */
  maxEventsPerStream?: number
  /** A stream key expires this long after its last event or its end. Default 1 hour. */
  streamTtlMs?: number
  /** Bound on every non-blocking call, including connecting. Default 2000. */
  timeoutMs?: number
  /** Longest single XREAD BLOCK of a replay (default 500): bounds how late an abort is seen. */
  blockMs?: number
}

const EVENT_STORE_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  keyPrefix: true,
  maxEventsPerStream: true,
  streamTtlMs: true,
  timeoutMs: true,
  blockMs: true,
} as const satisfies OptionNames<RedisEventStoreOptions>

/** Field names of a stream entry: a message, the priming event, the end marker. */
const MESSAGE = 'm'
const PRIMING = 'p'
const END = 'e'
const BATCH = 100

// KEYS: the stream. ARGV: field, value, entries kept, ttl (ms). Returns the new entry's seq.
// The newest entry is never trimmed, so it always holds the stream's last seq.
const APPEND = script(`local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
local seq = 1
if last then seq = tonumber(string.match(last[1], '^(%d+)')) + 1 end
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], string.format('%d-0', seq), ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return seq`)

type Entry = [id: string, fields: string[]]

/** An EventStore in Redis streams: a handshake-era stream cut on one instance resumes on any other. */
export function redisEventStore(options: RedisEventStoreOptions): EventStore {
  assertKnownOptions(options, EVENT_STORE_OPTION_NAMES, 'redisEventStore', { required: true })
  const timeoutMs = positiveInteger(options.timeoutMs ?? 2000, 'timeoutMs')
  const maxEvents = positiveInteger(options.maxEventsPerStream ?? 1000, 'maxEventsPerStream')
  const ttlMs = positiveInteger(options.streamTtlMs ?? 60 * 60_000, 'streamTtlMs')
  const blockMs = positiveInteger(options.blockMs ?? 500, 'blockMs')
  const prefix = options.keyPrefix ?? 'tessera:events:'
  const { client, release } = openConnection(options, 'redisEventStore', { timeoutMs })
  /** Connections of running replays, dropped on close so no replay outlives the store. */
  const readers = new Set<Redis>()
  let closed = false

  const assertOpen = () => {
    if (closed) throw new Error('redis event store is not open')
  }

  /** Appends one entry; resolves with its seq. */
  const add = async (streamId: string, field: string, value: string): Promise<number> => {
    assertOpen()
    assertStreamId(streamId)
    // The end marker is not an event: it must not push one out of the bound.
    const keep = field === END ? maxEvents + 1 : maxEvents
    const seq = await withTimeout(
      'event store append',
      evalScript(client, APPEND, [prefix + streamId], [field, value, keep, ttlMs]),
      timeoutMs,
    )
    if (typeof seq !== 'number') throw new Error('event store append got no seq')
    return seq
  }

  /** Delivers entries in order; true once the end marker is reached. */
  const deliver = (streamId: string, entries: Entry[], onEvent: (event: StoredEvent) => void): boolean => {
    for (const [id, fields] of entries) {
      const field = fields[0]
      if (field === END) return true
      const message =
        field === MESSAGE ? (JSON.parse(fields[1] ?? 'null') as StoredEvent['message']) : undefined
      onEvent({ id: formatEventId(streamId, seqOf(id)), message })
    }
    return false
  }

  const follow = async (
    key: string,
    streamId: string,
    cursor: string,
    onEvent: (event: StoredEvent) => void,
    signal: AbortSignal,
  ): Promise<void> => {
    const reader = client.duplicate({ commandTimeout: blockMs + timeoutMs, maxRetriesPerRequest: 1 })
    reader.on('error', () => {})
    readers.add(reader)
    const stop = () => reader.disconnect()
    signal.addEventListener('abort', stop, { once: true })
    try {
      while (!signal.aborted && !closed) {
        let reply: Array<[string, Entry[]]> | null
        try {
          reply = (await reader.xread('COUNT', BATCH, 'BLOCK', blockMs, 'STREAMS', key, cursor)) as Array<
            [string, Entry[]]
          > | null
        } catch (error) {
          if (signal.aborted || closed) return
          throw error
        }
        if (signal.aborted) return
        const entries = reply?.[0]?.[1] ?? []
        if (entries.length === 0) {
          // Nothing new: stop following a stream that expired without its end marker.
          if ((await withTimeout('event store replay', client.exists(key), timeoutMs)) === 0) return
          continue
        }
        if (deliver(streamId, entries, onEvent)) return
        cursor = entries[entries.length - 1]![0]
      }
    } finally {
      signal.removeEventListener('abort', stop)
      readers.delete(reader)
      reader.disconnect()
    }
  }

  return {
    async append(streamId, message) {
      const seq = await add(
        streamId,
        message === undefined ? PRIMING : MESSAGE,
        message === undefined ? '' : JSON.stringify(message),
      )
      return formatEventId(streamId, seq)
    },
    async finish(streamId) {
      await add(streamId, END, '')
    },
    async replay(eventId, onEvent, signal) {
      assertOpen()
      const parsed = parseEventId(eventId)
      if (parsed === undefined) return undefined
      const { streamId } = parsed
      const key = prefix + streamId
      const [last] = (await withTimeout(
        'event store replay',
        client.xrevrange(key, '+', '-', 'COUNT', 1),
        timeoutMs,
      )) as Entry[]
      if (last === undefined) return undefined
      // Finished, and the id is at or past its end: nothing will ever come after it.
      if (last[1][0] === END && seqOf(last[0]) <= parsed.seq) return streamId
      // The backlog, in batches, on the shared connection.
      let cursor = `${parsed.seq}-0`
      while (!signal.aborted) {
        const entries = (await withTimeout(
          'event store replay',
          client.xrange(key, `(${cursor}`, '+', 'COUNT', BATCH),
          timeoutMs,
        )) as Entry[]
        if (deliver(streamId, entries, onEvent)) return streamId
        if (entries.length < BATCH) {
          if (entries.length > 0) cursor = entries[entries.length - 1]![0]
          break
        }
        cursor = entries[entries.length - 1]![0]
      }
      // Then what comes next, live, until the end marker or the abort.
      if (!signal.aborted && !closed) await follow(key, streamId, cursor, onEvent, signal)
      return streamId
    },
    async close() {
      closed = true
      for (const reader of readers) reader.disconnect()
      readers.clear()
      await release()
    },
  }
}

/** The seq of an entry this store added (`<seq>-0`). */
function seqOf(entryId: string): number {
  return Number(entryId.slice(0, entryId.indexOf('-')))
}
