/**
 * @module postgres-session-store.test
 * The SessionStore contract, run against PostgreSQL at TESSERA_TEST_POSTGRES_URL (one table per
 * store, unique to this run, dropped afterwards), plus what only this store has: sessions shared
 * by stores on two pools (as two hosts would be), changes applied at once through both all kept,
 * maxSessions held across both, the SQL changes agreeing with core's applySessionChange, last_seen and
 * the sweep, a borrowed pool, and bounded failure without a server. Without the URL the suites
 * are skipped and say why.
 */
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  applySessionChange,
  MAX_SUBSCRIPTIONS,
  type SessionChange,
  type SessionRecord,
} from '@tessera/core/ports'
import fc from 'fast-check'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { describeSessionStore, sampleSession } from '../../../test/contracts/session-store-contract.ts'
import { postgresSessionStore } from './postgres-session-store.ts'

const url = process.env['TESSERA_TEST_POSTGRES_URL']
const skip = url ? undefined : 'TESSERA_TEST_POSTGRES_URL is not set'
if (skip) process.stderr.write(`postgres-session-store tests skipped: ${skip}\n`)
const run = randomBytes(6).toString('hex')
const tables: string[] = []
const freshTable = () => {
  const table = `tessera_test_sessions_${run}_${tables.length + 1}`
  tables.push(table)
  return table
}

describeSessionStore(
  'postgres',
  (options) => postgresSessionStore({ connectionString: url!, table: freshTable(), ...options }),
  skip ? { skip } : {},
)

describe.skipIf(!url)('postgresSessionStore', () => {
  const admin = url ? new pg.Pool({ connectionString: url }) : undefined

  afterAll(async () => {
    if (!admin) return
    for (const name of tables) await admin.query(`DROP TABLE IF EXISTS "${name}"`)
    await admin.end()
  })

  /** The raw row of a session, read on a connection of its own. */
  const rawRow = async (table: string, id: string) =>
    (
      await admin!.query<{ data: SessionRecord; last_seen: Date }>(
        `SELECT data, last_seen FROM "${table}" WHERE id = $1`,
        [id],
      )
    ).rows[0]

  /** Two stores on one table through two pools of their own, as on two hosts. */
  const twoHosts = (options: { maxSessions?: number; idleMs?: number } = {}) => {
    const table = freshTable()
    const pools = [new pg.Pool({ connectionString: url! }), new pg.Pool({ connectionString: url! })]
    const [a, b] = pools.map((pool) => postgresSessionStore({ pool, table, ...options }))
    const close = async () => {
      await Promise.all([a!.close(), b!.close()])
      await Promise.all(pools.map((pool) => pool.end()))
    }
    return { table, a: a!, b: b!, close }
  }

  it('sharesASessionBetweenTwoPoolsCreatedOnOneReadChangedAndDeletedOnTheOther', async () => {
    const { a, b, close } = twoHosts()
    const session = sampleSession({ subscriptions: ['file:///a'] })
    expect(await a.create(session)).toBe(true)
    expect(await b.get(session.id)).toEqual(session)
    await b.apply(session.id, { kind: 'log-level', level: 'debug' })
    await b.apply(session.id, { kind: 'subscribe', uri: 'file:///b' })
    expect(await a.get(session.id)).toEqual({
      ...session,
      logLevel: 'debug',
      subscriptions: ['file:///a', 'file:///b'],
    })
    expect(await b.delete(session.id)).toBe(true)
    expect(await a.get(session.id)).toBeUndefined()
    expect(await a.apply(session.id, { kind: 'initialized' })).toBeUndefined()
    expect(await a.delete(session.id)).toBe(false)
    await close()
  })

  it('keepsEveryChangeAppliedAtOnceThroughTwoPools', async () => {
    const { a, b, close } = twoHosts()
    const session = sampleSession()
    await a.create(session)
    const n = 40
    await Promise.all([
      ...Array.from({ length: n }, (_, i) =>
        (i % 2 === 0 ? a : b).apply(session.id, { kind: 'subscribe', uri: `config://${i}` }),
      ),
      a.apply(session.id, { kind: 'log-level', level: 'debug' }),
      b.apply(session.id, { kind: 'initialized' }),
    ])
    const expected = Array.from({ length: n }, (_, i) => `config://${i}`).sort()
    for (const store of [a, b]) {
      const stored = await store.get(session.id)
      expect(stored?.subscriptions.slice().sort()).toEqual(expected)
      expect(stored).toMatchObject({ logLevel: 'debug', initialized: true })
    }
    // And as many unsubscribes at once leave nothing behind.
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        (i % 2 === 0 ? b : a).apply(session.id, { kind: 'unsubscribe', uri: `config://${i}` }),
      ),
    )
    expect((await a.get(session.id))?.subscriptions).toEqual([])
    await close()
  })

  it('holdsMaxSessionsAcrossTwoPoolsCreatingAtOnce', async () => {
    const { a, b, close } = twoHosts({ maxSessions: 5 })
    const sessions = Array.from({ length: 16 }, () => sampleSession())
    const created = await Promise.all(sessions.map((s, i) => (i % 2 === 0 ? a : b).create(s)))
    expect(created.filter(Boolean)).toHaveLength(5)
    const live = await Promise.all(sessions.map((s) => a.get(s.id)))
    expect(live.filter((s) => s !== undefined)).toHaveLength(5)
    await close()
  })

  it('computesEveryChangeInSQLExactlyAsCoreApplySessionChangeDoes', async () => {
    const table = freshTable()
    const store = postgresSessionStore({ connectionString: url!, table })
    const uri = fc.constantFrom('config://a', 'config://b', 'file:///it\'s "quoted"', 'ünïcode://é')
    const change: fc.Arbitrary<SessionChange> = fc.oneof(
      fc.constant({ kind: 'initialized' as const }),
      fc.record({ kind: fc.constant('log-level' as const), level: fc.constantFrom('debug', 'error') }),
      fc.record({ kind: fc.constant('subscribe' as const), uri }),
      fc.record({ kind: fc.constant('unsubscribe' as const), uri }),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.array(uri, { maxLength: 3 }),
        fc.array(change, { maxLength: 8 }),
        async (initial, changes) => {
          const model = sampleSession({ subscriptions: [...new Set(initial)] })
          await store.create(model)
          for (const c of changes) {
            applySessionChange(model, c)
            expect(await store.apply(model.id, c)).toEqual(model)
          }
          expect(await store.get(model.id)).toEqual(model)
        },
      ),
      { numRuns: 25 },
    )
    await store.close()
  })

  it('keepsAtMostMAXSUBSCRIPTIONSSubscriptions', async () => {
    const table = freshTable()
    const store = postgresSessionStore({ connectionString: url!, table })
    const almost = Array.from({ length: MAX_SUBSCRIPTIONS - 1 }, (_, i) => `config://${i}`)
    const session = sampleSession({ subscriptions: almost })
    await store.create(session)
    expect(
      (await store.apply(session.id, { kind: 'subscribe', uri: 'config://last' }))?.subscriptions,
    ).toHaveLength(MAX_SUBSCRIPTIONS)
    const full = await store.apply(session.id, { kind: 'subscribe', uri: 'config://over' })
    expect(full?.subscriptions).toHaveLength(MAX_SUBSCRIPTIONS)
    expect(full?.subscriptions.at(-1)).toBe('config://last')
    await store.close()
  })

  it('refreshesLastSeenOnGetNotOnApply', async () => {
    const table = freshTable()
    const store = postgresSessionStore({ connectionString: url!, table })
    const session = sampleSession()
    await store.create(session)
    const created = (await rawRow(table, session.id))!.last_seen.getTime()
    await sleep(20)
    await store.apply(session.id, { kind: 'initialized' })
    const changed = (await rawRow(table, session.id))!
    expect(changed.last_seen.getTime()).toBe(created)
    expect(changed.data).toMatchObject({ initialized: true })
    await store.get(session.id)
    expect((await rawRow(table, session.id))!.last_seen.getTime()).toBeGreaterThan(created)
    await store.close()
  })

  it('deletesAnIdleRowWhenItIsReadOrChangedAndNeverBringsItBack', async () => {
    const table = freshTable()
    const store = postgresSessionStore({ connectionString: url!, table, idleMs: 50 })
    const read = sampleSession()
    const changed = sampleSession()
    const deleted = sampleSession()
    for (const s of [read, changed, deleted]) await store.create(s)
    await sleep(80)
    expect(await store.get(read.id)).toBeUndefined()
    expect(await rawRow(table, read.id)).toBeUndefined()
    expect(await store.apply(changed.id, { kind: 'subscribe', uri: 'config://x' })).toBeUndefined()
    expect(await rawRow(table, changed.id)).toBeUndefined()
    // An idle session is already gone: deleting it reports nothing was ended.
    expect(await store.delete(deleted.id)).toBe(false)
    expect(await rawRow(table, deleted.id)).toBeUndefined()
    await store.close()
  })

  it('sweepsIdleRowsOnCreate', async () => {
    const { table, a, b, close } = twoHosts({ idleMs: 100 })
    const first = sampleSession()
    expect(await a.create(first)).toBe(true)
    await sleep(150)
    expect(await b.create(sampleSession())).toBe(true)
    expect(await rawRow(table, first.id)).toBeUndefined()
    await close()
  })

  it('createsItsTableOnceEvenWhenSeveralStoresStartAtTheSameMoment', async () => {
    const table = freshTable()
    const stores = Array.from({ length: 4 }, () =>
      postgresSessionStore({ connectionString: url!, table, maxSessions: 10 }),
    )
    const results = await Promise.all(stores.map((store) => store.create(sampleSession())))
    expect(results).toEqual([true, true, true, true])
    await Promise.all(stores.map((store) => store.close()))
  })

  it('worksOnAPoolItDoesNotOwnLeavesItOpenAndRejectsNeverThrowsOnceClosed', async () => {
    const pool = new pg.Pool({ connectionString: url! })
    const store = postgresSessionStore({ pool, table: freshTable() })
    expect(await store.create(sampleSession())).toBe(true)
    await store.close()
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
    const calls = [
      () => store.create(sampleSession()),
      () => store.get('x'),
      () => store.apply('x', { kind: 'initialized' }),
      () => store.delete('x'),
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

  it('rejectsAnUnknownChange', async () => {
    const store = postgresSessionStore({ connectionString: url!, table: freshTable() })
    const session = sampleSession()
    await store.create(session)
    // A change of a kind this store does not know (a JavaScript caller's, or a newer core's).
    // @ts-expect-error: 'nonsense' is no SessionChange kind
    await expect(store.apply(session.id, { kind: 'nonsense' })).rejects.toThrow(TypeError)
    expect(await store.get(session.id)).toEqual(session)
    await store.close()
  })
})

describe('postgresSessionStore without a server', () => {
  it('failsACallInBoundedTime', async () => {
    const store = postgresSessionStore({
      connectionString: 'postgres://postgres@127.0.0.1:1/test',
      timeoutMs: 500,
    })
    const t0 = performance.now()
    await expect(store.get('x')).rejects.toThrow()
    await expect(store.create(sampleSession())).rejects.toThrow()
    expect(performance.now() - t0).toBeLessThan(1_500)
    await store.close()
  })

  it('refusesBadOptions', () => {
    const connectionString = 'postgres://postgres@127.0.0.1:1/test'
    expect(() => postgresSessionStore({ connectionString, table: 'x"; DROP TABLE y; --' })).toThrow(TypeError)
    expect(() => postgresSessionStore({ connectionString, idleMs: 0 })).toThrow(RangeError)
    expect(() => postgresSessionStore({ connectionString, maxSessions: 1.5 })).toThrow(RangeError)
    expect(() => postgresSessionStore({ connectionString, timeoutMs: -1 })).toThrow(RangeError)
    expect(() => postgresSessionStore({})).toThrow(TypeError)
  })
})
