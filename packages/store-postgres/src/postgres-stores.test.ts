/**
 * @module postgres-stores.test
 * The bundle, against PostgreSQL at TESSERA_TEST_POSTGRES_URL (under a prefix unique to this run,
 * tables dropped afterwards): a real server built on `postgresStores` keeps what it shares in the
 * database (a session opened through the server, a single-use record, a stream's events are all
 * visible to a second bundle on the same database, as another host would see them), its events
 * reach the other bundle's bus, every table and the channel carry the prefix, and the one pool is
 * ended exactly once, after the last store, but never when it is the caller's pool. Without the
 * URL the suite is skipped and says why.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { sampleStreamId } from '../../../test/contracts/event-store-contract.ts'
import { sampleSession } from '../../../test/contracts/session-store-contract.ts'
import { closeAll, expectBundlesShare, serverOn } from '../../../test/contracts/stores-bundle-contract.ts'
import { postgresStores } from './postgres-stores.ts'

const url = process.env['TESSERA_TEST_POSTGRES_URL']
const skip = url ? undefined : 'TESSERA_TEST_POSTGRES_URL is not set'
if (skip) process.stderr.write(`postgres-stores tests skipped: ${skip}\n`)
const run = randomBytes(6).toString('hex')
const prefixes: string[] = []
const freshPrefix = () => {
  const prefix = `tessera_test_b${run}_${prefixes.length + 1}_`
  prefixes.push(prefix)
  return prefix
}
const TABLES = ['single_use', 'sessions', 'stream_events', 'stream_events_streams', 'tasks', 'rate_limits']

describe.skipIf(!url)('postgresStores', () => {
  const admin = url ? new pg.Pool({ connectionString: url }) : undefined

  afterEach(() => {
    vi.restoreAllMocks()
  })

  afterAll(async () => {
    if (!admin) return
    for (const prefix of prefixes) {
      await admin.query(`DROP TABLE IF EXISTS ${TABLES.map((table) => `"${prefix}${table}"`).join(', ')}`)
    }
    await admin.end()
  })

  const tablesOf = async (prefix: string) =>
    (
      await admin!.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_name LIKE $1 ORDER BY 1`,
        [`${prefix}%`],
      )
    ).rows.map((row) => row.name.slice(prefix.length))

  /** Backends listening on `channel`, by the LISTEN they ran last. */
  const listeners = async (channel: string) =>
    (
      await admin!.query(`SELECT pid FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()`, [
        `LISTEN "${channel}"`,
      ])
    ).rowCount

  it('givesARealServerStoresAndABusAnotherHostSharesUnderItsPrefix', async () => {
    const prefix = freshPrefix()
    const stores = postgresStores({ connectionString: url!, prefix })
    const other = postgresStores({ connectionString: url!, prefix })
    await Promise.all([stores.bus.ready(), other.bus.ready()])
    expect(await listeners(`${prefix}bus`)).toBe(2)
    const shared = await expectBundlesShare(stores, other)
    try {
      expect(await tablesOf(prefix)).toEqual([...TABLES].sort())
    } finally {
      await shared.server.close()
      await closeAll(other)
    }
  })

  it('endsItsOnePoolOnceWhenTheServerClosesTheLastStore', async () => {
    const end = vi.spyOn(pg.Pool.prototype, 'end')
    const stores = postgresStores({ connectionString: url!, prefix: freshPrefix() })
    const server = serverOn(stores)
    await stores.bus.ready()
    expect(await stores.sessions.create(sampleSession())).toBe(true)
    await server.close()
    expect(end).toHaveBeenCalledTimes(1)
    expect((end.mock.contexts[0] as pg.Pool).ended).toBe(true)
    await expect(stores.sessions.get('x')).rejects.toThrow(/not open/)
  })

  it('keepsThePoolUntilTheLastStoreClosesAndASecondCloseDoesNothing', async () => {
    const end = vi.spyOn(pg.Pool.prototype, 'end')
    const stores = postgresStores({ connectionString: url!, prefix: freshPrefix() })
    await stores.bus.ready()
    await stores.replay.close()
    await stores.sessions.close()
    await stores.tasks.close()
    await stores.rateLimits.close()
    await stores.bus.close()
    await stores.bus.close()
    expect(end).not.toHaveBeenCalled()
    // The last store still works on the shared pool.
    const stream = sampleStreamId()
    expect(await stores.events.append(stream, undefined)).toBe(`${stream}/1`)
    await stores.events.close()
    await stores.events.close()
    await stores.replay.close()
    expect(end).toHaveBeenCalledTimes(1)
  })

  it('usesTheCallersPoolAndLeavesItOpen', async () => {
    const pool = new pg.Pool({ connectionString: url! })
    const prefix = freshPrefix()
    const stores = postgresStores({ pool, prefix })
    const server = serverOn(stores)
    const end = vi.spyOn(pool, 'end')
    await stores.bus.ready()
    const session = sampleSession()
    expect(await stores.sessions.create(session)).toBe(true)
    await server.close()
    expect(end).not.toHaveBeenCalled()
    const rows = await pool.query(`SELECT id FROM "${prefix}sessions" WHERE id = $1`, [session.id])
    expect(rows.rowCount).toBe(1)
    // The bus handed its LISTEN client back.
    expect(pool.totalCount).toBeGreaterThan(0)
    expect(pool.idleCount).toBe(pool.totalCount)
    end.mockRestore()
    await pool.end()
  })
})

describe('postgresStores without a server', () => {
  it('refusesBadOptions', () => {
    expect(() => postgresStores({})).toThrow(TypeError)
    expect(() => postgresStores({ connectionString: 'postgres://127.0.0.1:1/x', prefix: 'x"; --' })).toThrow(
      TypeError,
    )
    expect(() => postgresStores({ connectionString: 'postgres://127.0.0.1:1/x', timeoutMs: 0 })).toThrow(
      RangeError,
    )
  })
})
