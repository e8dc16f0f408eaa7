/**
 * @module redis-session-store.test
 * The SessionStore contract, run against Redis (TESSERA_TEST_REDIS_URL, under a key prefix unique
 * to this run and deleted afterwards; without the URL the Redis suites are skipped and say why),
 * plus what only the Redis store has: native expiry, a borrowed client, script reloading, bounded
 * failure without a server.
 */
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { describeSessionStore, sampleSession } from '../../../test/contracts/session-store-contract.ts'
import { redisSessionStore } from './redis-session-store.ts'

const url = process.env['TESSERA_TEST_REDIS_URL']
const skip = url ? undefined : 'TESSERA_TEST_REDIS_URL is not set'
if (skip) process.stderr.write(`redis-session-store tests skipped: ${skip}\n`)
const runPrefix = `tessera-test:${randomBytes(6).toString('hex')}:session:`
let stores = 0
/** Each store gets its own prefix, so the session count of one test never sees another's. */
const freshPrefix = () => `${runPrefix}${++stores}:`

describeSessionStore(
  'redis',
  (options) => redisSessionStore({ url: url!, keyPrefix: freshPrefix(), ...options }),
  skip ? { skip } : {},
)

describe.skipIf(!url)('redisSessionStore', () => {
  const admin = url ? new Redis(url) : undefined

  afterAll(async () => {
    if (!admin) return
    const keys = await admin.keys(`${runPrefix}*`)
    if (keys.length > 0) await admin.del(...keys)
    await admin.quit()
  })

  it('letsRedisExpireTheSessionItselfAndGetRefreshesTheExpiry', async () => {
    const keyPrefix = freshPrefix()
    const store = redisSessionStore({ url: url!, keyPrefix, idleMs: 60_000 })
    const session = sampleSession()
    await store.create(session)
    const key = `${keyPrefix}s:${session.id}`
    expect(await admin!.pttl(key)).toBeGreaterThan(55_000)
    await admin!.pexpire(key, 5_000)
    await store.get(session.id)
    expect(await admin!.pttl(key)).toBeGreaterThan(55_000)
    // A change is not a use: it keeps the expiry as it is.
    await admin!.pexpire(key, 5_000)
    await store.apply(session.id, { kind: 'initialized' })
    expect(await admin!.pttl(key)).toBeLessThanOrEqual(5_000)
    expect(JSON.parse((await admin!.get(key))!)).toMatchObject({ initialized: true })
    await store.close()
  })

  it('keepsNoIndexWithoutMaxSessionsAndAnExpiringOneWithIt', async () => {
    const plain = freshPrefix()
    const a = redisSessionStore({ url: url!, keyPrefix: plain })
    await a.create(sampleSession())
    expect(await admin!.exists(`${plain}index`)).toBe(0)
    await a.close()
    const capped = freshPrefix()
    const b = redisSessionStore({ url: url!, keyPrefix: capped, maxSessions: 5, idleMs: 60_000 })
    const session = sampleSession()
    await b.create(session)
    expect(await admin!.zscore(`${capped}index`, session.id)).not.toBeNull()
    expect(await admin!.pttl(`${capped}index`)).toBeGreaterThan(55_000)
    await b.delete(session.id)
    expect(await admin!.zscore(`${capped}index`, session.id)).toBeNull()
    await b.close()
  })

  it('sharesSessionsBetweenTwoStoresTwoInstances', async () => {
    const keyPrefix = freshPrefix()
    const a = redisSessionStore({ url: url!, keyPrefix })
    const b = redisSessionStore({ url: url!, keyPrefix })
    const session = sampleSession()
    await a.create(session)
    await b.apply(session.id, { kind: 'log-level', level: 'debug' })
    expect((await a.get(session.id))?.logLevel).toBe('debug')
    expect(await b.delete(session.id)).toBe(true)
    expect(await a.get(session.id)).toBeUndefined()
    await Promise.all([a.close(), b.close()])
  })

  it('worksOnAClientItDoesNotOwnLeavesItOpenAndRefusesCallsOnceClosed', async () => {
    const client = new Redis(url!)
    const store = redisSessionStore({ client, keyPrefix: freshPrefix() })
    const session = sampleSession()
    expect(await store.create(session)).toBe(true)
    expect(await store.get(session.id)).toEqual(session)
    await store.close()
    expect(await client.ping()).toBe('PONG')
    await expect(store.get(session.id)).rejects.toThrow(/not open/)
    await client.quit()
  })

  it('reloadsItsScriptsAfterSCRIPTFLUSH', async () => {
    const store = redisSessionStore({ url: url!, keyPrefix: freshPrefix(), maxSessions: 10 })
    const session = sampleSession()
    await store.create(session)
    await admin!.script('FLUSH')
    expect(await store.get(session.id)).toEqual(session)
    expect(await store.create(sampleSession())).toBe(true)
    expect(await store.delete(session.id)).toBe(true)
    await store.close()
  })
})

describe('redisSessionStore without a server', () => {
  it('failsACallInBoundedTime', async () => {
    const store = redisSessionStore({ url: 'redis://127.0.0.1:1', keyPrefix: runPrefix, timeoutMs: 500 })
    const t0 = performance.now()
    await expect(store.get('x')).rejects.toThrow()
    expect(performance.now() - t0).toBeLessThan(1_500)
    await store.close()
  })

  it('refusesBadOptions', () => {
    expect(() => redisSessionStore({})).toThrow(TypeError)
    expect(() => redisSessionStore({ url: 'redis://127.0.0.1:1', idleMs: 0 })).toThrow(RangeError)
    expect(() => redisSessionStore({ url: 'redis://127.0.0.1:1', maxSessions: 1.5 })).toThrow(RangeError)
  })
})
