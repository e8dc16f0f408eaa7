/**
 * @module claim-after-timeout.test
 * A claim that timed out for its caller never takes effect later. The caller answered "nothing
 * was done" (503); if the claim it sent was queued behind a stalled store and ran when the store
 * woke, it would leave an in-progress record with no worker behind it, and every honest retry
 * would hear "being acted on right now" for a whole lease. Here the store stalls for real: a
 * Redis of the test's own frozen with SIGSTOP, and a PostgreSQL table held under an exclusive
 * lock (on the application's own pool, which has no statement timeout); after each wakes, the
 * key has no record and the retry runs the work.
 */
import { randomBytes } from 'node:crypto'
import { createSingleUseGuard, type ReplayStore, SingleUseStoreError } from '@tessera/core/ports'
import { postgresReplayStore } from '@tessera/store-postgres'
import { redisReplayStore } from '@tessera/store-redis'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { hasRedisServer, type OwnRedis, startOwnRedis } from '../helpers/own-redis.ts'
import { sleep } from '../helpers/timing.ts'

const postgresUrl = process.env.TESSERA_TEST_POSTGRES_URL
if (!hasRedisServer) process.stderr.write('claim-after-timeout Redis case skipped: no redis-server binary\n')
if (!postgresUrl)
  process.stderr.write('claim-after-timeout PostgreSQL case skipped: TESSERA_TEST_POSTGRES_URL is not set\n')

const STORE_TIMEOUT_MS = 400
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/**
 * Runs a guarded action while `stall` holds the store, expects the store error in bounded time
 * with the work not run, lets the store go, and shows the key free: the retry executes.
 */
async function claimDuringStall(
  store: ReplayStore,
  stall: () => Promise<void>,
  release: () => Promise<void>,
) {
  const guard = createSingleUseGuard({ store, leaseMs: 15_000 })
  const key = randomBytes(12).toString('base64url')
  let runs = 0
  const work = async () => {
    runs++
    return 'rolled back'
  }
  // One action first, so the store has its statements and scripts ready: the stalled call is the claim itself.
  await guard.run(
    randomBytes(12).toString('base64url'),
    'warm',
    60_000,
    async () => 'warm',
    (v) => v,
  )
  await stall()
  const started = Date.now()
  const refused = await guard.run(key, 'rollback', 60_000, work, (v) => v).catch((error: unknown) => error)
  const waited = Date.now() - started
  await release()
  expect(refused).toBeInstanceOf(SingleUseStoreError)
  expect(waited).toBeLessThan(STORE_TIMEOUT_MS * 3)
  expect(runs).toBe(0)
  // The queued claim has reached the store by now; it must have written nothing.
  await sleep(300)
  expect(await store.inspect(key)).toBeUndefined()
  const retry = await guard.run(key, 'rollback', 60_000, work, (v) => v)
  expect(retry.status).toBe('executed')
  expect(runs).toBe(1)
}

describe('a claim that timed out for its caller', () => {
  it.skipIf(!hasRedisServer)(
    'neverTakesEffectWhenAFrozenRedisWakesUp',
    async () => {
      const redis: OwnRedis = await startOwnRedis()
      cleanups.push(() => redis.stop())
      const store = redisReplayStore({ url: redis.url, timeoutMs: STORE_TIMEOUT_MS })
      cleanups.push(() => store.close())
      await claimDuringStall(
        store,
        async () => redis.freeze(),
        async () => redis.thaw(),
      )
    },
    20_000,
  )

  it.skipIf(!postgresUrl)(
    'neverTakesEffectWhenAPostgresLockItWaitedOnIsReleased',
    async () => {
      const table = `tessera_test_late_${randomBytes(6).toString('hex')}`
      const admin = new pg.Client({ connectionString: postgresUrl })
      await admin.connect()
      cleanups.push(async () => {
        await admin.query(`DROP TABLE IF EXISTS "${table}"`).catch(() => undefined)
        await admin.end()
      })
      // The application's own pool, with no statement_timeout: the server would run the claim
      // whenever the lock let it, long after the caller gave up.
      const pool = new pg.Pool({ connectionString: postgresUrl })
      cleanups.push(() => pool.end())
      const store = postgresReplayStore({ pool, table, timeoutMs: STORE_TIMEOUT_MS })
      cleanups.push(() => store.close())
      await claimDuringStall(
        store,
        async () => {
          await admin.query('BEGIN')
          await admin.query(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`)
        },
        async () => {
          await admin.query('COMMIT')
        },
      )
    },
    20_000,
  )
})
