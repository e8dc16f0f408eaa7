/**
 * @module event-store
 * The message log behind resumable SSE streams of the handshake era (`EventStore`) and the
 * in-memory store; every store names its events by the one rule of `protocol/handshake/event-id.ts`. Every event id names its stream (and the stream names its session), so
 * `Last-Event-ID` replays only the stream that broke, only for the session that owns it. A resumer keeps receiving new events until the
 * stream finishes, so work that goes on after a disconnect is not lost.
 */
import { assertKnownOptions, type OptionNames } from '../../option-checks.ts'
import { assertStreamId, formatEventId, parseEventId } from '../../protocol/handshake/event-id.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'

/** One event of a stream, as `EventStore.replay` delivers it. */
export interface StoredEvent {
  /** The event id (`formatEventId`): what a client that reconnects sends as `Last-Event-ID`. */
  id: string
  /** The JSON-RPC message, or undefined for the empty priming event. */
  message: JsonObject | undefined
}

/**
 * The port behind the resumable SSE streams of the handshake era (the `events` of `Stores`): the
 * messages of each stream, kept so a client that reconnects with `Last-Event-ID` receives what it
 * missed, and what follows, from any instance.
 */
export interface EventStore {
  /** Appends a message (undefined = priming event) and returns its id, unique across streams. */
  append(streamId: string, message: JsonObject | undefined): Promise<string>
  /** No more events will come on this stream. */
  finish(streamId: string): Promise<void>
  /**
   * Delivers the events after `eventId` on its stream, then new ones as they come, until the
   * stream finishes or `signal` aborts. Resolves with the stream id, or undefined when unknown.
   */
  replay(
    eventId: string,
    onEvent: (event: StoredEvent) => void,
    signal: AbortSignal,
  ): Promise<string | undefined>
  /** Releases what the store holds; the server calls it once, from `close()`. */
  close(): Promise<void>
}

/** The bounds of `memoryEventStore`. */
export interface MemoryEventStoreOptions {
  /** Events kept per stream (default 1000; older ones are dropped). */
  maxEventsPerStream?: number
  /** Streams kept (default 10 000; the oldest go first). */
  maxStreams?: number
}

const MEMORY_EVENT_OPTION_NAMES = {
  maxEventsPerStream: true,
  maxStreams: true,
} as const satisfies OptionNames<MemoryEventStoreOptions>

interface Stream {
  events: Array<{ seq: number; message: JsonObject | undefined }>
  next: number
  finished: boolean
  waiters: Set<() => void>
}

/**
 * The event store of one process: bounded in events per stream and in streams, the oldest going
 * first. A server uses it when `stores.events` is not given.
 */
export function memoryEventStore(options?: MemoryEventStoreOptions): EventStore {
  assertKnownOptions(options, MEMORY_EVENT_OPTION_NAMES, 'memoryEventStore')
  const perStream = options?.maxEventsPerStream ?? 1000
  const maxStreams = options?.maxStreams ?? 10_000
  const streams = new Map<string, Stream>()
  const open = (id: string): Stream => {
    let stream = streams.get(id)
    if (!stream) {
      if (streams.size >= maxStreams) streams.delete(streams.keys().next().value as string)
      stream = { events: [], next: 1, finished: false, waiters: new Set() }
      streams.set(id, stream)
    }
    return stream
  }
  const wake = (stream: Stream) => {
    for (const waiter of stream.waiters) waiter()
    stream.waiters.clear()
  }
  return {
    async append(streamId, message) {
      assertStreamId(streamId)
      const stream = open(streamId)
      const seq = stream.next++
      stream.events.push({ seq, message })
      if (stream.events.length > perStream) stream.events.shift()
      wake(stream)
      return formatEventId(streamId, seq)
    },
    async finish(streamId) {
      assertStreamId(streamId)
      const stream = open(streamId)
      stream.finished = true
      wake(stream)
    },
    async replay(eventId, onEvent, signal) {
      const parsed = parseEventId(eventId)
      const stream = parsed === undefined ? undefined : streams.get(parsed.streamId)
      if (!parsed || !stream) return undefined
      const { streamId } = parsed
      let cursor = parsed.seq
      while (!signal.aborted) {
        for (const event of stream.events) {
          if (event.seq <= cursor) continue
          cursor = event.seq
          onEvent({ id: formatEventId(streamId, event.seq), message: event.message })
        }
        if (stream.finished) break
        await new Promise<void>((resolve) => {
          stream.waiters.add(resolve)
          signal.addEventListener('abort', () => resolve(), { once: true })
        })
      }
      return streamId
    },
    async close() {
      for (const stream of streams.values()) wake(stream)
      streams.clear()
    },
  }
}

/**
 * For event stores that follow a stream by polling: a follower pauses until `pollMs` pass, or
 * sooner when this process appends to or finishes the stream (`wake`), the signal aborts, or the
 * store closes (`wakeAll`).
 */
export interface FollowerWakeups {
  /** Resolves after `pollMs`, or sooner on a wake of `streamId` or of all, or when `signal` aborts. */
  pause(streamId: string, signal: AbortSignal): Promise<void>
  /** Wakes the followers of `streamId` paused in this process: call it after appending to or finishing it. */
  wake(streamId: string): void
  /** Wakes every paused follower: call it when the store closes. */
  wakeAll(): void
}

/** The wakeups of an event store whose followers poll every `pollMs` (see `FollowerWakeups`). */
export function createFollowerWakeups(pollMs: number): FollowerWakeups {
  const waiters = new Map<string, Set<() => void>>()
  const wake = (streamId: string) => {
    const set = waiters.get(streamId)
    if (!set) return
    waiters.delete(streamId)
    for (const waiter of set) waiter()
  }
  return {
    wake,
    wakeAll() {
      for (const streamId of [...waiters.keys()]) wake(streamId)
    },
    pause(streamId, signal) {
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer)
          signal.removeEventListener('abort', done)
          const set = waiters.get(streamId)
          set?.delete(done)
          if (set?.size === 0) waiters.delete(streamId)
          resolve()
        }
        const timer = setTimeout(done, pollMs)
        signal.addEventListener('abort', done, { once: true })
        const set = waiters.get(streamId) ?? new Set()
        waiters.set(streamId, set)
        set.add(done)
      })
    },
  }
}
