/**
 * @module sqlite-rate-limit-store.test
 * The RateLimitStore contract against the SQLite store, on a temporary file and in memory; and
 * what two processes sharing the file would see: two handles on one file taking from one bucket
 * at once never get more than its tokens between them.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { describeRateLimitStore } from '../../../test/contracts/rate-limit-store-contract.ts'
import { sqliteRateLimitStore } from './sqlite-rate-limit-store.ts'

const dir = mkdtempSync(join(tmpdir(), 'tessera-sqlite-rate-limits-'))
const path = join(dir, 'limits.db')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describeRateLimitStore('sqlite file', () => sqliteRateLimitStore({ path, table: 'contract_limits' }))
describeRateLimitStore('sqlite :memory:', () => sqliteRateLimitStore({ path: ':memory:' }))

describe('sqliteRateLimitStore', () => {
  it('neverGivesTwoHandlesOnOneFileMoreThanTheBucketHolds', async () => {
    const [a, b] = [sqliteRateLimitStore({ path }), sqliteRateLimitStore({ path })]
    try {
      const bucket = { capacity: 12, refillMs: 600_000 }
      const takes = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).take('shared', bucket)),
      )
      expect(takes.filter((take) => take.allowed)).toHaveLength(12)
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('refusesAnUnknownOptionAndAClosedStore', async () => {
    expect(() => sqliteRateLimitStore({ path: ':memory:', tabel: 'x' } as never)).toThrow(/tabel.*table/)
    const store = sqliteRateLimitStore({ path: ':memory:' })
    await store.close()
    await expect(store.take('k', { capacity: 1, refillMs: 1 })).rejects.toThrow('not open')
  })
})
