/**
 * @module redis-stores.test
 * The bundle, against Redis at TESSERA_TEST_REDIS_URL (under a prefix unique to this run, keys
 * deleted afterwards): a real server built on `redisStores` keeps what it shares in Redis (a
 * session opened through the server, a single-use record, a stream's events are all visible to a
 * second bundle on the same URL, as another instance would see them), its events reach the other
 * bundle's bus, every key and the channel carry the prefix, and the one connection is closed
 * exactly once, after the last store, but never when it is the caller's client. Without the URL
 * the suite is skipped and says why.
 */
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { sampleStreamId } from '../../../test/contracts/event-store-contract.ts'
import { until } from '../../../test/contracts/notification-bus-contract.ts'
import { sampleSession } from '../../../test/contracts/session-store-contract.ts'
import { closeAll, expectBundlesShare, serverOn } from '../../../test/contracts/stores-bundle-contract.ts'
import { redisStores } from './redis-stores.ts'

const url = process.env['TESSERA_TEST_REDIS_URL']
const skip = url ? undefined : 'TESSERA_TEST_REDIS_URL is not set'
if (skip) process.stderr.write(`redis-stores tests skipped: ${skip}\n`)
const runPrefix = `tessera-test:${randomBytes(6).toString('hex')}:`
let bundles = 0
const freshPrefix = () => `${runPrefix}${++bundles}:`

describe.skipIf(!url)('redisStores', () => {
  const admin = url ? new Redis(url) : undefined

  afterEach(() => {
    vi.restoreAllMocks()
  })

  afterAll(async () => {
    if (!admin) return
    const keys = await admin.keys(`${runPrefix}*`)
    if (keys.length > 0) await admin.del(...keys)
    await admin.quit()
  })

  it('givesARealServerStoresAndABusAnotherInstanceSharesUnderItsPrefix', async () => {
    const prefix = freshPrefix()
    const stores = redisStores({ url: url!, prefix })
    const other = redisStores({ url: url!, prefix })
    await Promise.all([stores.bus.ready(), other.bus.ready()])
    expect(await admin!.pubsub('NUMSUB', `${prefix}bus`)).toEqual([`${prefix}bus`, 2])
    const shared = await expectBundlesShare(stores, other)
    try {
      expect(await admin!.exists(`${prefix}session:s:${shared.sessionId}`)).toBe(1)
      expect(await admin!.exists(`${prefix}single-use:${shared.replayKey}`)).toBe(1)
      expect(await admin!.exists(`${prefix}events:${shared.streamId}`)).toBe(1)
      expect(await admin!.exists(`${prefix}task:${shared.taskId}`)).toBe(1)
      expect(await admin!.exists(`${prefix}rate-limit:${shared.rateLimitKey}`)).toBe(1)
    } finally {
      await shared.server.close()
      await closeAll(other)
    }
  })

  it('closesItsOneConnectionOnceWhenTheServerClosesTheLastStore', async () => {
    const quit = vi.spyOn(Redis.prototype, 'quit')
    const stores = redisStores({ url: url!, prefix: freshPrefix() })
    const server = serverOn(stores)
    await stores.bus.ready()
    expect(await stores.sessions.create(sampleSession())).toBe(true)
    await server.close()
    expect(quit).toHaveBeenCalledTimes(1)
    const connection = quit.mock.contexts[0] as Redis
    await until(() => connection.status === 'end', 'the connection to end')
    await expect(stores.sessions.get('x')).rejects.toThrow(/not open/)
  })

  it('keepsTheConnectionOpenUntilTheLastStoreClosesAndASecondCloseDoesNothing', async () => {
    const quit = vi.spyOn(Redis.prototype, 'quit')
    const stores = redisStores({ url: url!, prefix: freshPrefix() })
    await stores.replay.close()
    await stores.sessions.close()
    await stores.tasks.close()
    await stores.rateLimits.close()
    await stores.bus.close()
    await stores.bus.close()
    expect(quit).not.toHaveBeenCalled()
    // The last store still works on the shared connection.
    const stream = sampleStreamId()
    expect(await stores.events.append(stream, undefined)).toBe(`${stream}/1`)
    await stores.events.close()
    await stores.events.close()
    await stores.replay.close()
    expect(quit).toHaveBeenCalledTimes(1)
  })

  it('usesTheCallersClientAndLeavesItOpen', async () => {
    const client = new Redis(url!)
    const prefix = freshPrefix()
    const stores = redisStores({ client, prefix })
    const server = serverOn(stores)
    const quit = vi.spyOn(client, 'quit')
    const session = sampleSession()
    expect(await stores.sessions.create(session)).toBe(true)
    await server.close()
    expect(quit).not.toHaveBeenCalled()
    expect(await client.ping()).toBe('PONG')
    expect(await client.exists(`${prefix}session:s:${session.id}`)).toBe(1)
    await client.quit()
  })
})

describe('redisStores without a server', () => {
  it('refusesToStartWithoutAUrlOrAClientOrWithABadTimeout', () => {
    expect(() => redisStores({})).toThrow(TypeError)
    expect(() => redisStores({ url: 'redis://127.0.0.1:1', timeoutMs: 0 })).toThrow(RangeError)
  })
})
