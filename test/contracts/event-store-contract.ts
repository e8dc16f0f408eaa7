/**
 * @module event-store-contract
 * The behaviour every handshake-era EventStore must show (memory and Redis alike), as a vitest
 * suite a store's test file registers: ids that name their stream and round-trip exactly, replay
 * after an id of that stream only, live delivery until the end of the stream, a prompt answer to
 * an abort, undefined for what the store does not know, and bounded retention.
 */
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { type EventStore, type StoredEvent, streamOf } from '@tessera/core'
import { afterEach, describe, expect, it } from 'vitest'

export interface EventStoreOptions {
  maxEventsPerStream?: number
}

export type MakeEventStore = (options: EventStoreOptions) => EventStore | Promise<EventStore>

/** A stream id shaped like the transport's: `<sessionId>.<random>`. */
export function sampleStreamId(sessionId = randomBytes(24).toString('base64url')): string {
  return `${sessionId}.${randomBytes(9).toString('base64url')}`
}

const msg = (n: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 't', progress: n },
})

/** Replays into an array; resolves with the stream id and the events. */
async function collect(
  store: EventStore,
  eventId: string,
  signal: AbortSignal = new AbortController().signal,
): Promise<{ stream: string | undefined; events: StoredEvent[] }> {
  const events: StoredEvent[] = []
  const stream = await store.replay(eventId, (event) => events.push(event), signal)
  return { stream, events }
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms)
    }),
  ]).finally(() => clearTimeout(timer))
}

/** Registers the contract suite for one EventStore; skipped (with the reason in its name) when `skip` is set. */
export function describeEventStore(
  name: string,
  make: MakeEventStore,
  options: { skip?: string } = {},
): void {
  if (options.skip !== undefined) {
    describe.skip(`EventStore contract: ${name} (skipped: ${options.skip})`, () => {
      it.skip(`skipped: ${options.skip}`, () => {})
    })
    return
  }
  describe(`EventStore contract: ${name}`, () => {
    const opened: EventStore[] = []
    const open = async (opts: EventStoreOptions = {}) => {
      const store = await make(opts)
      opened.push(store)
      return store
    }
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()))
    })

    it('mints ids that name their stream and are unique', async () => {
      const store = await open()
      const a = sampleStreamId()
      const b = sampleStreamId()
      const ids = [
        await store.append(a, undefined),
        await store.append(a, msg(1)),
        await store.append(b, undefined),
        await store.append(a, msg(2)),
        await store.append(b, msg(1)),
      ]
      expect(new Set(ids).size).toBe(ids.length)
      expect(ids.map((id) => streamOf(id))).toEqual([a, a, b, a, b])
      for (const id of ids) {
        expect(id.startsWith(`${streamOf(id)}/`)).toBe(true)
        // Visible ASCII without spaces: safe in an SSE `id:` line and a Last-Event-ID header.
        expect(id).toMatch(/^[\x21-\x7E]+$/)
      }
    })

    it('replays the events after an id, with the very ids append returned, until the end', async () => {
      const store = await open()
      const stream = sampleStreamId()
      const priming = await store.append(stream, undefined)
      const appended: StoredEvent[] = []
      for (let n = 1; n <= 4; n++) appended.push({ id: await store.append(stream, msg(n)), message: msg(n) })
      await store.finish(stream)
      const all = await within(collect(store, priming), 2_000, 'replay of a finished stream')
      expect(all.stream).toBe(stream)
      expect(all.events).toEqual(appended)
      const tail = await within(collect(store, appended[1]!.id), 2_000, 'replay from the middle')
      expect(tail.events).toEqual(appended.slice(2))
      // Replaying is repeatable.
      expect((await collect(store, priming)).events).toEqual(appended)
      // After the last event there is nothing left, and the replay still ends.
      expect((await within(collect(store, appended[3]!.id), 2_000, 'replay from the last')).events).toEqual(
        [],
      )
    })

    it('replays the empty priming events too', async () => {
      const store = await open()
      const stream = sampleStreamId()
      const first = await store.append(stream, msg(0))
      const priming = await store.append(stream, undefined)
      const last = await store.append(stream, msg(1))
      await store.finish(stream)
      expect((await collect(store, first)).events).toEqual([
        { id: priming, message: undefined },
        { id: last, message: msg(1) },
      ])
    })

    it('never replays another stream, even of the same session', async () => {
      const store = await open()
      const session = randomBytes(24).toString('base64url')
      const mine = sampleStreamId(session)
      const other = sampleStreamId(session)
      const start = await store.append(mine, undefined)
      await store.append(other, msg(99))
      const own = await store.append(mine, msg(1))
      await store.append(other, msg(98))
      await store.finish(other)
      await store.finish(mine)
      expect((await collect(store, start)).events).toEqual([{ id: own, message: msg(1) }])
    })

    it('follows a stream live until it finishes', async () => {
      const store = await open()
      const stream = sampleStreamId()
      const priming = await store.append(stream, undefined)
      const seen: StoredEvent[] = []
      const replay = store.replay(priming, (event) => seen.push(event), new AbortController().signal)
      await sleep(50)
      const expected: StoredEvent[] = []
      for (let n = 1; n <= 3; n++) {
        expected.push({ id: await store.append(stream, msg(n)), message: msg(n) })
        await sleep(30)
      }
      await store.finish(stream)
      expect(await within(replay, 2_000, 'a live replay after finish')).toBe(stream)
      expect(seen).toEqual(expected)
    })

    it('stops following when the signal aborts, within a second', async () => {
      const store = await open()
      const stream = sampleStreamId()
      const priming = await store.append(stream, undefined)
      const controller = new AbortController()
      const seen: StoredEvent[] = []
      const replay = store.replay(priming, (event) => seen.push(event), controller.signal)
      const one = await store.append(stream, msg(1))
      await sleep(100)
      const t0 = performance.now()
      controller.abort()
      await within(replay, 1_500, 'an aborted replay')
      expect(performance.now() - t0).toBeLessThan(1_000)
      expect(seen).toEqual([{ id: one, message: msg(1) }])
    })

    it('answers at once for an already aborted signal', async () => {
      const store = await open()
      const stream = sampleStreamId()
      const priming = await store.append(stream, undefined)
      const controller = new AbortController()
      controller.abort()
      await within(collect(store, priming, controller.signal), 1_000, 'a replay with an aborted signal')
    })

    it('answers undefined for an unknown stream or a malformed id', async () => {
      const store = await open()
      const unknown = `${sampleStreamId()}/1`
      expect(await within(collect(store, unknown), 1_000, 'unknown stream')).toEqual({
        stream: undefined,
        events: [],
      })
      expect((await collect(store, 'no-slash-at-all')).stream).toBeUndefined()
      expect((await collect(store, '/1')).stream).toBeUndefined()
      const stream = sampleStreamId()
      await store.append(stream, undefined)
      await store.finish(stream)
      expect((await collect(store, `${stream}/not-an-id`)).stream).toBeUndefined()
    })

    it('keeps a bounded number of events per stream, always the newest', async () => {
      const store = await open({ maxEventsPerStream: 10 })
      const stream = sampleStreamId()
      const first = await store.append(stream, undefined)
      const ids: string[] = []
      for (let n = 1; n <= 600; n++) ids.push(await store.append(stream, msg(n)))
      await store.finish(stream)
      const { events } = await collect(store, first)
      expect(events.length).toBeGreaterThanOrEqual(10)
      expect(events.length).toBeLessThan(600)
      expect(events.map((e) => e.id)).toEqual(ids.slice(-events.length))
    })
  })
}
