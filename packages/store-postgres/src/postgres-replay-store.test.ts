/**
 * @module postgres-replay-store.test
 * The PostgreSQL store runs the shared contract against TESSERA_TEST_POSTGRES_URL, in a
 * table unique to this run (dropped afterwards); without the URL the suite is skipped
 * and says why.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { describeReplayStore } from '../../../test/contracts/replay-store-contract.ts'
import { postgresReplayStore } from './postgres-replay-store.ts'

const url = process.env['TESSERA_TEST_POSTGRES_URL']
const skip = url ? undefined : 'TESSERA_TEST_POSTGRES_URL is not set'
if (skip) process.stderr.write(`postgres-replay-store tests skipped: ${skip}\n`)
const run = randomBytes(6).toString('hex')
const table = `tessera_test_${run}`
const tables = [table, `${table}_race`, `${table}_borrowed`, `${table}_sweep`]

describeReplayStore(
  'postgres',
  () => postgresReplayStore({ connectionString: url!, table }),
  skip ? { skip } : {},
)

describe.skipIf(!url)('postgresReplayStore', () => {
  const admin = url ? new pg.Pool({ connectionString: url }) : undefined

  afterAll(async () => {
    if (!admin) return
    for (const name of tables) await admin.query(`DROP TABLE IF EXISTS "${name}"`)
    await admin.end()
  })

  it('createsItsTableOnceEvenWhenSeveralStoresStartAtTheSameMoment', async () => {
    const stores = Array.from({ length: 4 }, () =>
      postgresReplayStore({ connectionString: url!, table: tables[1] }),
    )
    const results = await Promise.all(stores.map((s) => s.claim('k', 'x', 1_000, 1_000)))
    expect(results.filter((r) => r.kind === 'claimed')).toHaveLength(1)
    await Promise.all(stores.map((s) => s.close()))
  })

  it('worksOnAPoolItDoesNotOwnAndLeavesItOpen', async () => {
    const pool = new pg.Pool({ connectionString: url! })
    const store = postgresReplayStore({ pool, table: tables[2] })
    expect((await store.claim('k', 'x', 1_000, 1_000)).kind).toBe('claimed')
    await store.close()
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
    await pool.end()
  })

  it('sweepsExpiredRows', async () => {
    const store = postgresReplayStore({ connectionString: url!, table: tables[3], sweepEvery: 3 })
    await store.claim('a', 'x', 10, 10)
    await store.claim('b', 'x', 10, 10)
    await new Promise((resolve) => setTimeout(resolve, 30))
    await store.claim('c', 'x', 10_000, 10_000)
    await store.close()
    const rows = await admin!.query(`SELECT key FROM "${tables[3]}" ORDER BY key`)
    expect(rows.rows).toEqual([{ key: 'c' }])
  })

  it('refusesATableNameThatIsNotAPlainIdentifier', () => {
    expect(() => postgresReplayStore({ connectionString: url!, table: 'x"; DROP TABLE y; --' })).toThrow(
      TypeError,
    )
  })
})

describe('postgresReplayStore without a server', () => {
  it('failsACallWithAStoreErrorInBoundedTime', async () => {
    const store = postgresReplayStore({
      connectionString: 'postgres://postgres@127.0.0.1:1/test',
      timeoutMs: 500,
    })
    const t0 = performance.now()
    await expect(store.claim('k', 'x', 1_000, 1_000)).rejects.toMatchObject({
      code: 'TESSERA_STORE_UNAVAILABLE',
    })
    expect(performance.now() - t0).toBeLessThan(1_500)
    await store.close()
  })
})
