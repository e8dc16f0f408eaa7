/**
 * @module postgres-event-store.test
 * The EventStore contract, run against PostgreSQL at TESSERA_TEST_POSTGRES_URL (tables unique to
 * this run, dropped afterwards), plus what only this store has: a replay through one pool of what
 * another appended, followed live (as on two hosts), distinct gapless ids from two pools appending
 * to one stream at once, trimming, expiry and sweeping, replays stopped by close, a borrowed pool,
 * and bounded failure without a server. Which ids name an event is the contract's business: every
 * store agrees on it. Without the URL the suites are skipped and say why.
 */
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { EventStore, StoredEvent } from '@tessera/core/ports'
import pg from 'pg'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { describeEventStore, sampleStreamId } from '../../../test/contracts/event-store-contract.ts'
import { postgresEventStore } from './postgres-event-store.ts'

const url = process.env['TESSERA_TEST_POSTGRES_URL']
const skip = url ? undefined : 'TESSERA_TEST_POSTGRES_URL is not set'
if (skip) process.stderr.write(`postgres-event-store tests skipped: ${skip}\n`)
const run = randomBytes(6).toString('hex')
const tables: string[] = []
const freshTable = () => {
  const table = `tessera_test_events_${run}_${tables.length + 1}`
  tables.push(table)
  return table
}
const contractTable = freshTable()

describeEventStore(
  'postgres',
  (options) => postgresEventStore({ connectionString: url!, table: contractTable, ...options }),
  skip ? { skip } : {},
)

const note = (n: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data: n },
})

async function collect(store: EventStore, eventId: string, signal = new AbortController().signal) {
  const events: StoredEvent[] = []
  const stream = await store.replay(eventId, (event) => events.push(event), signal)
  return { stream, events }
}

describe.skipIf(!url)('postgresEventStore', () => {
  const admin = url ? new pg.Pool({ connectionString: url }) : undefined
  const pools: pg.Pool[] = []
  const opened: EventStore[] = []
  /** A store on a pool of its own (as on a host of its own) unless one is given. */
  const open = (options: Partial<Parameters<typeof postgresEventStore>[0]> = {}) => {
    const store = postgresEventStore({ connectionString: url!, table: contractTable, ...options })
    opened.push(store)
    return store
  }
  const onPool = (table: string, options: Partial<Parameters<typeof postgresEventStore>[0]> = {}) => {
    const pool = new pg.Pool({ connectionString: url! })
    pools.push(pool)
    return open({ pool, table, ...options })
  }
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()))
    await Promise.all(pools.splice(0).map((pool) => pool.end()))
  })
  afterAll(async () => {
    if (!admin) return
    for (const name of tables) await admin.query(`DROP TABLE IF EXISTS "${name}", "${name}_streams"`)
    await admin.end()
  })

  const rawCount = async (table: string, stream: string) =>
    Number(
      (await admin!.query<{ n: string }>(`SELECT count(*) AS n FROM "${table}" WHERE stream = $1`, [stream]))
        .rows[0]!.n,
    )

  it('mintsStreamSeqIdsSeqCountingFrom1PerStream', async () => {
    const store = open()
    const a = sampleStreamId()
    const b = sampleStreamId()
    expect(await store.append(a, undefined)).toBe(`${a}/1`)
    expect(await store.append(a, note(1))).toBe(`${a}/2`)
    expect(await store.append(b, note(1))).toBe(`${b}/1`)
    expect(await store.append(a, note(2))).toBe(`${a}/3`)
  })

  it('replaysThroughOnePoolWhatAnotherAppendedAndFollowsItLiveTwoHosts', async () => {
    const table = freshTable()
    const writer = onPool(table)
    const reader = onPool(table)
    const stream = sampleStreamId()
    const priming = await writer.append(stream, undefined)
    const backlog = { id: await writer.append(stream, note(0)), message: note(0) }
    const seen: StoredEvent[] = []
    const replay = reader.replay(priming, (event) => seen.push(event), new AbortController().signal)
    const expected: StoredEvent[] = [backlog]
    for (let n = 1; n <= 5; n++) {
      expected.push({ id: await writer.append(stream, note(n)), message: note(n) })
      await sleep(20)
    }
    // The reader polls: it has already seen the live events before the stream finishes.
    await sleep(150)
    expect(seen).toEqual(expected)
    await writer.finish(stream)
    expect(await replay).toBe(stream)
    expect(seen).toEqual(expected)
  })

  it('mintsDistinctGaplessIdsForTwoPoolsAppendingToOneStreamAtOnceSeenOnceEachByAFollower', async () => {
    const table = freshTable()
    const a = onPool(table)
    const b = onPool(table)
    const stream = sampleStreamId()
    const priming = await a.append(stream, undefined)
    const seen: StoredEvent[] = []
    const replay = b.replay(priming, (event) => seen.push(event), new AbortController().signal)
    const ids = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).append(stream, note(i))),
    )
    await a.finish(stream)
    await replay
    expect(ids.map((id) => Number(id.slice(stream.length + 1))).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 60 }, (_, i) => i + 2),
    )
    // The live replay saw every event once, in seq order, under the id its writer was given.
    expect(seen.map((event) => event.id)).toEqual(ids.slice().sort((x, y) => seqOf(x) - seqOf(y)))
  })

  it('keepsExactlyMaxEventsPerStreamRowsOfAStream', async () => {
    const table = freshTable()
    const store = open({ table, maxEventsPerStream: 5 })
    const stream = sampleStreamId()
    const ids: string[] = []
    for (let n = 1; n <= 12; n++) ids.push(await store.append(stream, note(n)))
    await store.finish(stream)
    expect(await rawCount(table, stream)).toBe(5)
    expect((await collect(store, ids[0]!)).events.map((event) => event.id)).toEqual(ids.slice(-5))
  })

  it('replaysABacklogLargerThanOneReadInOrder', async () => {
    const store = open()
    const stream = sampleStreamId()
    const priming = await store.append(stream, undefined)
    const ids: string[] = []
    for (let n = 1; n <= 250; n++) ids.push(await store.append(stream, note(n)))
    await store.finish(stream)
    expect((await collect(store, priming)).events.map((event) => event.id)).toEqual(ids)
  })

  it('forgetsAStreamUnchangedForStreamTtlMsAndSweepsItsRows', async () => {
    const table = freshTable()
    const store = open({ table, streamTtlMs: 100, sweepEvery: 1 })
    const old = sampleStreamId()
    const priming = await store.append(old, undefined)
    await store.append(old, note(1))
    await sleep(150)
    expect(await collect(store, priming)).toEqual({ stream: undefined, events: [] })
    expect(await rawCount(table, old)).toBe(2)
    await store.append(sampleStreamId(), undefined)
    // The sweep runs beside the append: wait for it.
    for (let i = 0; i < 50 && (await rawCount(table, old)) > 0; i++) await sleep(20)
    expect(await rawCount(table, old)).toBe(0)
    expect(await rawCount(`${table}_streams`, old)).toBe(0)
  })

  it('stopsFollowingAStreamThatExpiresWhileFollowed', async () => {
    const store = open({ table: freshTable(), streamTtlMs: 150 })
    const stream = sampleStreamId()
    const priming = await store.append(stream, undefined)
    const t0 = performance.now()
    expect(await collect(store, priming)).toEqual({ stream, events: [] })
    expect(performance.now() - t0).toBeLessThan(1_000)
  })

  it('endsItsReplaysOnClose', async () => {
    const store = postgresEventStore({ connectionString: url!, table: contractTable, pollMs: 10_000 })
    const stream = sampleStreamId()
    const priming = await store.append(stream, undefined)
    const replay = store.replay(priming, () => {}, new AbortController().signal)
    await sleep(50)
    const t0 = performance.now()
    await store.close()
    await expect(replay).resolves.toBe(stream)
    expect(performance.now() - t0).toBeLessThan(500)
  })

  it('wakesALocalReplayOnAppendAtOnceWithoutWaitingForThePoll', async () => {
    const store = open({ pollMs: 10_000 })
    const stream = sampleStreamId()
    const priming = await store.append(stream, undefined)
    const seen: StoredEvent[] = []
    const replay = store.replay(priming, (event) => seen.push(event), new AbortController().signal)
    await sleep(30)
    const id = await store.append(stream, note(1))
    await sleep(30)
    expect(seen).toEqual([{ id, message: note(1) }])
    await store.finish(stream)
    expect(await replay).toBe(stream)
  })

  it('worksOnAPoolItDoesNotOwnLeavesItOpenAndRejectsNeverThrowsOnceClosed', async () => {
    const pool = new pg.Pool({ connectionString: url! })
    const store = postgresEventStore({ pool, table: contractTable })
    await expect(store.append('', undefined)).rejects.toThrow(TypeError)
    expect(await store.append(sampleStreamId(), undefined)).toMatch(/\/1$/)
    await store.close()
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
    const calls = [
      () => store.append(sampleStreamId(), undefined),
      () => store.finish(sampleStreamId()),
      () => store.replay(`${sampleStreamId()}/1`, () => {}, new AbortController().signal),
    ]
    for (const call of calls) {
      let promise: Promise<unknown> | undefined
      expect(() => {
        promise = call()
      }).not.toThrow()
      await expect(promise).rejects.toThrow(/not open/)
    }
    await pool.end()
  })
})

describe('postgresEventStore without a server', () => {
  it('failsACallInBoundedTime', async () => {
    const store = postgresEventStore({
      connectionString: 'postgres://postgres@127.0.0.1:1/test',
      timeoutMs: 500,
    })
    const t0 = performance.now()
    await expect(store.append(sampleStreamId(), undefined)).rejects.toThrow()
    await expect(
      store.replay(`${sampleStreamId()}/1`, () => {}, new AbortController().signal),
    ).rejects.toThrow()
    expect(performance.now() - t0).toBeLessThan(1_500)
    await store.close()
  })

  it('refusesBadOptions', () => {
    const connectionString = 'postgres://postgres@127.0.0.1:1/test'
    expect(() => postgresEventStore({ connectionString, table: 'x"; DROP TABLE y' })).toThrow(TypeError)
    expect(() => postgresEventStore({ connectionString, table: 'x'.repeat(56) })).toThrow(TypeError)
    expect(() => postgresEventStore({ connectionString, maxEventsPerStream: 0 })).toThrow(RangeError)
    expect(() => postgresEventStore({ connectionString, streamTtlMs: 1.5 })).toThrow(RangeError)
    expect(() => postgresEventStore({ connectionString, pollMs: -1 })).toThrow(RangeError)
    expect(() => postgresEventStore({})).toThrow(TypeError)
  })
})

function seqOf(id: string): number {
  return Number(id.slice(id.lastIndexOf('/') + 1))
}
