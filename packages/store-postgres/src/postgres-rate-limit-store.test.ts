/**
 * @module postgres-rate-limit-store.test
 * The RateLimitStore contract against PostgreSQL at TESSERA_TEST_POSTGRES_URL, in a table unique
 * to this run (dropped afterwards); stores starting at once, a borrowed pool, the sweep of rows of
 * buckets full again, and a bounded failure without a server. Without the URL the PostgreSQL
 * suites are skipped and say why.
 */
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { describeRateLimitStore } from '../../../test/contracts/rate-limit-store-contract.ts'
import { postgresRateLimitStore } from './postgres-rate-limit-store.ts'

const url = process.env['TESSERA_TEST_POSTGRES_URL']
const skip = url ? undefined : 'TESSERA_TEST_POSTGRES_URL is not set'
if (skip) process.stderr.write(`postgres-rate-limit-store tests skipped: ${skip}\n`)
const table = `tessera_test_limits_${randomBytes(6).toString('hex')}`
const tables = [table, `${table}_start`, `${table}_borrowed`, `${table}_sweep`]

describeRateLimitStore(
  'postgres',
  () => postgresRateLimitStore({ connectionString: url!, table }),
  skip ? { skip } : {},
)

describe.skipIf(!url)('postgresRateLimitStore', () => {
  const admin = url ? new pg.Pool({ connectionString: url }) : undefined

  afterAll(async () => {
    if (!admin) return
    for (const name of tables) await admin.query(`DROP TABLE IF EXISTS "${name}"`)
    await admin.end()
  })

  it('createsItsTableOnceAndSharesOneBucketWhenSeveralStoresStartAtOnce', async () => {
    const stores = Array.from({ length: 4 }, () =>
      postgresRateLimitStore({ connectionString: url!, table: tables[1] }),
    )
    const bucket = { capacity: 6, refillMs: 600_000 }
    const takes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => stores[i % stores.length]!.take('start', bucket)),
    )
    expect(takes.filter((take) => take.allowed)).toHaveLength(6)
    await Promise.all(stores.map((store) => store.close()))
  })

  it('worksOnAPoolItDoesNotOwnLeavesItOpenAndRefusesTakesOnceClosed', async () => {
    const pool = new pg.Pool({ connectionString: url! })
    const store = postgresRateLimitStore({ pool, table: tables[2] })
    expect((await store.take('k', { capacity: 1, refillMs: 1_000 })).allowed).toBe(true)
    await store.close()
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
    await expect(store.take('k', { capacity: 1, refillMs: 1_000 })).rejects.toMatchObject({
      code: 'TESSERA_STORE_UNAVAILABLE',
    })
    await pool.end()
  })

  it('sweepsTheRowsOfBucketsFullAgain', async () => {
    const store = postgresRateLimitStore({ connectionString: url!, table: tables[3], sweepEvery: 3 })
    await store.take('soon-full', { capacity: 1, refillMs: 10 })
    await store.take('long-empty', { capacity: 1, refillMs: 600_000 })
    await sleep(30)
    await store.take('third', { capacity: 1, refillMs: 600_000 })
    await store.close()
    const rows = await admin!.query(`SELECT key FROM "${tables[3]}" ORDER BY key`)
    expect(rows.rows.map((row) => row.key)).toEqual(['long-empty', 'third'])
  })
})

describe('postgresRateLimitStore without a server', () => {
  it('failsATakeWithAStoreErrorInBoundedTime', async () => {
    const store = postgresRateLimitStore({ connectionString: 'postgres://127.0.0.1:1/none', timeoutMs: 500 })
    const t0 = performance.now()
    await expect(store.take('k', { capacity: 1, refillMs: 1_000 })).rejects.toMatchObject({
      code: 'TESSERA_STORE_UNAVAILABLE',
    })
    expect(performance.now() - t0).toBeLessThan(1_500)
    await store.close()
  })

  it('refusesAnUnknownOptionABadTableAndABucketItCannotKeep', async () => {
    const connectionString = 'postgres://127.0.0.1:1/none'
    expect(() => postgresRateLimitStore({ connectionString, tabel: 'x' } as never)).toThrow(/tabel.*table/)
    expect(() => postgresRateLimitStore({ connectionString, table: 'x"; DROP' })).toThrow('invalid table')
    const store = postgresRateLimitStore({ connectionString, timeoutMs: 500 })
    await expect(store.take('k', { capacity: 1, refillMs: 0 })).rejects.toThrow(TypeError)
    await store.close()
  })
})
