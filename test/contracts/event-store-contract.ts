/**
 * @module event-store-contract
 * The behaviour every handshake-era EventStore must show (memory, SQLite, Redis and PostgreSQL
 * alike), as a vitest suite a store's test file registers: ids that follow core's one event-id
 * rule (`parseEventId`) and round-trip exactly, replay after an id of that stream only, live
 * delivery until the end of the stream, a prompt answer to an abort, undefined for every id that
 * names no event, refusal of stream ids an event id cannot carry, and bounded retention.
 */
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { type EventStore, MAX_STREAM_ID_LENGTH, parseEventId, type StoredEvent } from '@tessera/core/ports'
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
      it.skip(`skippedBecause${options.skip}`, () => {})
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

    it('mintsIdsThatNameTheirStreamByTheOneEventIdRuleInIncreasingOrder', async () => {
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
      const parsed = ids.map((id) => parseEventId(id))
      expect(parsed.map((p) => p?.streamId)).toEqual([a, a, b, a, b])
      for (const id of ids) {
        // Visible ASCII without spaces: safe in an SSE `id:` line and a Last-Event-ID header.
        expect(id).toMatch(/^[\x21-\x7E]+$/)
      }
      const seqs = (stream: string) => parsed.filter((p) => p?.streamId === stream).map((p) => p!.seq)
      for (const stream of [a, b]) {
        const order = seqs(stream)
        expect(order).toEqual([...order].sort((x, y) => x - y))
      }
    })

    it('acceptsAStreamIdOfTheLongestLengthAnEventIdCanCarry', async () => {
      const store = await open()
      const stream = `${sampleStreamId()}${'x'.repeat(MAX_STREAM_ID_LENGTH)}`.slice(0, MAX_STREAM_ID_LENGTH)
      const priming = await store.append(stream, undefined)
      const one = await store.append(stream, msg(1))
      await store.finish(stream)
      expect(parseEventId(one)?.streamId).toBe(stream)
      expect(await collect(store, priming)).toEqual({ stream, events: [{ id: one, message: msg(1) }] })
    })

    it('refusesByRejectingNeverThrowingAStreamIdAnEventIdCannotCarry', async () => {
      const store = await open()
      for (const bad of ['', 'a/b', '/', 'x'.repeat(MAX_STREAM_ID_LENGTH + 1)]) {
        for (const call of [() => store.append(bad, msg(1)), () => store.finish(bad)]) {
          let promise: Promise<unknown> | undefined
          expect(() => {
            promise = call()
          }).not.toThrow()
          await expect(promise, JSON.stringify(bad)).rejects.toThrow(TypeError)
        }
      }
    })

    it('replaysTheEventsAfterAnIdWithTheVeryIdsAppendReturnedUntilTheEnd', async () => {
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

    it('replaysTheEmptyPrimingEventsToo', async () => {
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

    it('neverReplaysAnotherStreamEvenOfTheSameSession', async () => {
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

    it('followsAStreamLiveUntilItFinishes', async () => {
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

    it('stopsFollowingWhenTheSignalAbortsWithinASecond', async () => {
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

    it('answersAtOnceForAnAlreadyAbortedSignal', async () => {
      const store = await open()
      const stream = sampleStreamId()
      const priming = await store.append(stream, undefined)
      const controller = new AbortController()
      controller.abort()
      await within(collect(store, priming, controller.signal), 1_000, 'a replay with an aborted signal')
    })

    it('answersUndefinedForAnUnknownStream', async () => {
      const store = await open()
      const unknown = `${sampleStreamId()}/1`
      expect(await within(collect(store, unknown), 1_000, 'unknown stream')).toEqual({
        stream: undefined,
        events: [],
      })
    })

    it('answersUndefinedForEveryIdThatNamesNoEventEvenOnAKnownStream', async () => {
      const store = await open()
      const s = sampleStreamId()
      await store.append(s, undefined)
      await store.append(s, msg(1))
      await store.finish(s)
      const bad = [
        'abc',
        '',
        `${s}/`,
        `${s}/0`,
        `${s}/01`,
        `${s}/-1`,
        `${s}/+1`,
        `${s}/1.5`,
        `${s}/1.0`,
        `${s}/1e3`,
        `${s}/0x1`,
        `${s}/ 1`,
        `${s}/1 `,
        `${s}/not-an-id`,
        `${s}/9007199254740993`,
        `${s}/99999999999999999`,
        `${s}/1/1`,
        `${s}`,
        '/1',
        'a/b/1',
        `${s}/${s}/1`,
        `${'x'.repeat(300)}/1`,
        `${'s'.repeat(MAX_STREAM_ID_LENGTH + 1)}/1`,
      ]
      for (const id of bad) {
        expect(await within(collect(store, id), 1_000, `replay of ${JSON.stringify(id)}`), id).toEqual({
          stream: undefined,
          events: [],
        })
      }
      // The same stream, with a well-formed id: known.
      expect((await collect(store, `${s}/1`)).stream).toBe(s)
    })

    it('answersAFinishedStreamAtOnceAfterItsLastEventWhateverTheNumber', async () => {
      const store = await open()
      const stream = sampleStreamId()
      await store.append(stream, undefined)
      await store.append(stream, msg(1))
      await store.finish(stream)
      expect(await within(collect(store, `${stream}/7`), 1_000, 'replay past the end')).toEqual({
        stream,
        events: [],
      })
    })

    it('keepsABoundedNumberOfEventsPerStreamAlwaysTheNewest', async () => {
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
