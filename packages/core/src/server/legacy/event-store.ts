/**
 * @module event-store
 * The message log behind resumable SSE streams of the handshake era. Every event id names its
 * stream (and the stream names its session), so `Last-Event-ID` replays only the stream that
 * broke, only for the session that owns it. A resumer keeps receiving new events until the
 * stream finishes, so work that goes on after a disconnect is not lost.
 */
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'

export interface StoredEvent {
  id: string
  /** The JSON-RPC message, or undefined for the empty priming event. */
  message: JsonObject | undefined
}

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
  close(): Promise<void>
}

/** Stream id of an event id (`<stream>/<seq>`). */
export function streamOf(eventId: string): string | undefined {
  const slash = eventId.lastIndexOf('/')
  return slash <= 0 ? undefined : eventId.slice(0, slash)
}

export interface MemoryEventStoreOptions {
  /** Events kept per stream (default 1000; older ones are dropped). */
  maxEventsPerStream?: number
  /** Streams kept (default 10 000; the oldest go first). */
  maxStreams?: number
}

interface Stream {
  events: Array<{ seq: number; message: JsonObject | undefined }>
  next: number
  finished: boolean
  waiters: Set<() => void>
}

export function memoryEventStore(options?: MemoryEventStoreOptions): EventStore {
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
      const stream = open(streamId)
      const seq = stream.next++
      stream.events.push({ seq, message })
      if (stream.events.length > perStream) stream.events.shift()
      wake(stream)
      return `${streamId}/${seq}`
    },
    async finish(streamId) {
      const stream = open(streamId)
      stream.finished = true
      wake(stream)
    },
    async replay(eventId, onEvent, signal) {
      const streamId = streamOf(eventId)
      const after = Number(eventId.slice(eventId.lastIndexOf('/') + 1))
      const stream = streamId === undefined ? undefined : streams.get(streamId)
      if (!stream || !Number.isSafeInteger(after)) return undefined
      let cursor = after
      while (!signal.aborted) {
        for (const event of stream.events) {
          if (event.seq <= cursor) continue
          cursor = event.seq
          onEvent({ id: `${streamId}/${event.seq}`, message: event.message })
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
  pause(streamId: string, signal: AbortSignal): Promise<void>
  wake(streamId: string): void
  wakeAll(): void
}

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
