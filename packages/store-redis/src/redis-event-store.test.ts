/**
 * @module redis-event-store.test
 * The EventStore contract, run against Redis Streams (TESSERA_TEST_REDIS_URL, under a key prefix
 * unique to this run and deleted afterwards; without the URL the Redis suites are skipped and say
 * why), plus what only the Redis store has: entry ids that carry the event's seq, key expiry,
 * distinct gapless ids from two stores appending to one stream at once, a replay on one store of
 * what another appended, connections released on abort and close.
 */
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseEventId, type StoredEvent } from '@tessera/core/ports'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { describeEventStore, sampleStreamId } from '../../../test/contracts/event-store-contract.ts'
import { redisEventStore } from './redis-event-store.ts'

const url = process.env['TESSERA_TEST_REDIS_URL']
const skip = url ? undefined : 'TESSERA_TEST_REDIS_URL is not set'
if (skip) process.stderr.write(`redis-event-store tests skipped: ${skip}\n`)
const keyPrefix = `tessera-test:${randomBytes(6).toString('hex')}:events:`

describeEventStore(
  'redis',
  (options) => redisEventStore({ url: url!, keyPrefix, ...options }),
  skip ? { skip } : {},
)

const note = (n: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data: n },
})

/** Connections named `name` (a replay's connection is a duplicate of the client, name included). */
async function clientCount(admin: Redis, name: string): Promise<number> {
  const list = (await admin.client('LIST')) as string
  return list.split('\n').filter((line) => line.includes(` name=${name} `)).length
}

describe.skipIf(!url)('redisEventStore', () => {
  const admin = url ? new Redis(url) : undefined

  afterAll(async () => {
    if (!admin) return
    const keys = await admin.keys(`${keyPrefix}*`)
    if (keys.length > 0) await admin.del(...keys)
    await admin.quit()
  })

  it('mintsStreamSeqIdsOnSeq0EntriesAndSetsTheStreamTTLOnAppendAndFinish', async () => {
    const store = redisEventStore({ url: url!, keyPrefix, streamTtlMs: 60_000 })
    const stream = sampleStreamId()
    const other = sampleStreamId()
    expect(await store.append(stream, undefined)).toBe(`${stream}/1`)
    expect(await store.append(other, note(1))).toBe(`${other}/1`)
    expect(await store.append(stream, note(1))).toBe(`${stream}/2`)
    const key = `${keyPrefix}${stream}`
    expect((await admin!.xrange(key, '-', '+')).map(([id]) => id)).toEqual(['1-0', '2-0'])
    expect(await admin!.pttl(key)).toBeGreaterThan(55_000)
    await admin!.pexpire(key, 5_000)
    await store.finish(stream)
    expect(await admin!.pttl(key)).toBeGreaterThan(55_000)
    expect(await admin!.xlen(key)).toBe(3)
    await store.close()
  })

  it('mintsDistinctGaplessIdsForTwoStoresAppendingToOneStreamAtOnce', async () => {
    const a = redisEventStore({ url: url!, keyPrefix })
    const b = redisEventStore({ url: url!, keyPrefix })
    const stream = sampleStreamId()
    const ids = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).append(stream, note(i))),
    )
    expect(ids.map((id) => parseEventId(id)?.seq).sort((x, y) => x! - y!)).toEqual(
      Array.from({ length: 60 }, (_, i) => i + 1),
    )
    await Promise.all([a.close(), b.close()])
  })

  it('reloadsItsAppendScriptAfterSCRIPTFLUSH', async () => {
    const store = redisEventStore({ url: url!, keyPrefix })
    const stream = sampleStreamId()
    await store.append(stream, undefined)
    await admin!.script('FLUSH')
    expect(await store.append(stream, note(1))).toBe(`${stream}/2`)
    await store.close()
  })

  it('replaysOnOneStoreWhatAnotherAppendedLiveTwoInstances', async () => {
    const writer = redisEventStore({ url: url!, keyPrefix })
    const reader = redisEventStore({ url: url!, keyPrefix })
    const stream = sampleStreamId()
    const priming = await writer.append(stream, undefined)
    const seen: StoredEvent[] = []
    const replay = reader.replay(priming, (event) => seen.push(event), new AbortController().signal)
    const expected: StoredEvent[] = []
    for (let n = 1; n <= 5; n++) {
      expected.push({ id: await writer.append(stream, note(n)), message: note(n) })
      await sleep(20)
    }
    await writer.finish(stream)
    expect(await replay).toBe(stream)
    expect(seen).toEqual(expected)
    await Promise.all([writer.close(), reader.close()])
  })

  it('releasesTheBlockingConnectionOfAReplayOnAbortAndOnClose', async () => {
    const name = `tessera-test-${randomBytes(6).toString('hex')}`
    const client = new Redis(url!, { connectionName: name })
    const store = redisEventStore({ client, keyPrefix, blockMs: 5_000 })
    const stream = sampleStreamId()
    const priming = await store.append(stream, undefined)
    expect(await clientCount(admin!, name)).toBe(1)
    const controller = new AbortController()
    const replay = store.replay(priming, () => {}, controller.signal)
    await sleep(100)
    expect(await clientCount(admin!, name)).toBe(2)
    const t0 = performance.now()
    controller.abort()
    await replay
    // Even with a 5 s block, the abort drops the connection at once.
    expect(performance.now() - t0).toBeLessThan(500)
    await sleep(50)
    expect(await clientCount(admin!, name)).toBe(1)
    const second = store.replay(priming, () => {}, new AbortController().signal)
    await sleep(100)
    expect(await clientCount(admin!, name)).toBe(2)
    await store.close()
    await expect(second).resolves.toBe(stream)
    await sleep(50)
    expect(await clientCount(admin!, name)).toBe(1)
    await client.quit()
  })

  it('stopsFollowingAStreamWhoseKeyExpiredWithoutItsEndMarker', async () => {
    const store = redisEventStore({ url: url!, keyPrefix, blockMs: 100 })
    const stream = sampleStreamId()
    const priming = await store.append(stream, undefined)
    const replay = store.replay(priming, () => {}, new AbortController().signal)
    await sleep(50)
    await admin!.del(`${keyPrefix}${stream}`)
    await expect(replay).resolves.toBe(stream)
    await store.close()
  })

  it('worksOnAClientItDoesNotOwnLeavesItOpenAndRefusesCallsOnceClosed', async () => {
    const client = new Redis(url!)
    const store = redisEventStore({ client, keyPrefix })
    const stream = sampleStreamId()
    const priming = await store.append(stream, undefined)
    const replay = store.replay(priming, () => {}, new AbortController().signal)
    await sleep(50)
    await store.finish(stream)
    await expect(replay).resolves.toBe(stream)
    await store.close()
    expect(await client.ping()).toBe('PONG')
    await expect(store.append(stream, undefined)).rejects.toThrow(/not open/)
    await expect(store.replay(priming, () => {}, new AbortController().signal)).rejects.toThrow(/not open/)
    await client.quit()
  })
})

describe('redisEventStore without a server', () => {
  it('failsAnAppendInBoundedTime', async () => {
    const store = redisEventStore({ url: 'redis://127.0.0.1:1', keyPrefix, timeoutMs: 500 })
    const t0 = performance.now()
    await expect(store.append(sampleStreamId(), undefined)).rejects.toThrow()
    expect(performance.now() - t0).toBeLessThan(1_500)
    await store.close()
  })
})
