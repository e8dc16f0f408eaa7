/**
 * @module deployment-log.test
 * One contract, three backends: a history is seeded once, read oldest first, and appended to only
 * on the head it was decided against, even when several appends race for the same head, and an
 * entry appended under a request key is written once however often that key comes back. Redis
 * and PostgreSQL run when their test URLs are set, each under a namespace of its own.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import type { DeploymentLog, SeedEntry } from '../src/deployments/deployment-log.ts'
import { postgresDeploymentLog } from '../src/deployments/postgres-deployment-log.ts'
import { redisDeploymentLog } from '../src/deployments/redis-deployment-log.ts'
import { sqliteDeploymentLog } from '../src/deployments/sqlite-deployment-log.ts'

const REDIS_URL = process.env.TESSERA_TEST_REDIS_URL
const POSTGRES_URL = process.env.TESSERA_TEST_POSTGRES_URL
if (!REDIS_URL) process.stderr.write('deployment-log redis skipped: TESSERA_TEST_REDIS_URL is not set\n')
if (!POSTGRES_URL)
  process.stderr.write('deployment-log postgres skipped: TESSERA_TEST_POSTGRES_URL is not set\n')
const run = randomBytes(4).toString('hex')
const dir = mkdtempSync(join(tmpdir(), 'ops-catalogue-log-'))
const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup()
  rmSync(dir, { recursive: true, force: true })
})

const backends: Array<{ name: string; up: boolean; open: () => DeploymentLog }> = [
  { name: 'sqlite', up: true, open: () => sqliteDeploymentLog({ path: join(dir, 'log.sqlite') }) },
  {
    name: 'redis',
    up: REDIS_URL !== undefined,
    open: () => {
      const prefix = `ops-catalogue-test:${run}:`
      cleanups.push(async () => {
        const r = new Redis(REDIS_URL!)
        const keys = await r.keys(`${prefix}*`)
        if (keys.length > 0) await r.del(...keys)
        await r.quit()
      })
      return redisDeploymentLog({ url: REDIS_URL!, keyPrefix: prefix })
    },
  },
  {
    name: 'postgres',
    up: POSTGRES_URL !== undefined,
    open: () => {
      const table = `ops_deployments_test_${run}`
      cleanups.push(async () => {
        const c = new pg.Client({ connectionString: POSTGRES_URL })
        await c.connect()
        await c.query(`DROP TABLE IF EXISTS "${table}"`)
        await c.end()
      })
      return postgresDeploymentLog({ connectionString: POSTGRES_URL!, table })
    },
  },
]

const SEED: SeedEntry[] = [
  { kind: 'deploy', version: '1.0.0', at: '2026-10-01T10:00:00Z', by: 'ci', note: 'first' },
  { kind: 'deploy', version: '1.1.0', at: '2026-10-08T10:00:00Z', by: 'ci' },
]

describe.each(backends)('$name deployment log', ({ name, up, open }) => {
  it.skipIf(!up)('seedsAServiceOnceAndReadsItsHistoryOldestFirst', async () => {
    const log = open()
    try {
      expect(await log.seed('api', SEED)).toBe(true)
      expect(
        await log.seed('api', [{ kind: 'deploy', version: '9.9.9', at: '2026-11-01T00:00:00Z', by: 'x' }]),
      ).toBe(false)
      const history = await log.history('api')
      expect(history).toEqual([
        {
          id: 'seed:api:1',
          seq: 1,
          service: 'api',
          kind: 'deploy',
          version: '1.0.0',
          at: '2026-10-01T10:00:00Z',
          by: 'ci',
          note: 'first',
        },
        {
          id: 'seed:api:2',
          seq: 2,
          service: 'api',
          kind: 'deploy',
          version: '1.1.0',
          at: '2026-10-08T10:00:00Z',
          by: 'ci',
        },
      ])
      expect(await log.history('unknown')).toEqual([])
    } finally {
      await log.close()
    }
  })

  it.skipIf(!up)('appendsOnlyOnTheExpectedHeadAndSaysWhatTheHeadIsOtherwise', async () => {
    const log = open()
    try {
      await log.seed('web', SEED)
      const rollback = {
        service: 'web',
        kind: 'rollback' as const,
        version: '1.0.0',
        previousVersion: '1.1.0',
        by: 'test',
      }
      const stale = await log.append(rollback, 'seed:web:1')
      expect(stale).toEqual({ ok: false, head: expect.objectContaining({ id: 'seed:web:2' }) })
      const done = await log.append(rollback, 'seed:web:2')
      expect(done.ok).toBe(true)
      expect(done.ok && done.deployment).toMatchObject({
        seq: 3,
        kind: 'rollback',
        version: '1.0.0',
        previousVersion: '1.1.0',
      })
      const history = await log.history('web')
      expect(history.map((d) => d.seq)).toEqual([1, 2, 3])
      expect(history[2]).toEqual(done.ok ? done.deployment : undefined)
    } finally {
      await log.close()
    }
  })

  it.skipIf(!up)(`letsExactlyOneOfSeveralRacingAppendsOnOneHeadLand${name}`, async () => {
    const logs = [open(), open(), open(), open()]
    try {
      await logs[0]!.seed('race', SEED)
      const results = await Promise.all(
        logs.map((log, i) =>
          log.append(
            { service: 'race', kind: 'rollback', version: '1.0.0', by: `writer-${i}` },
            'seed:race:2',
          ),
        ),
      )
      expect(results.filter((r) => r.ok)).toHaveLength(1)
      expect(await logs[0]!.history('race')).toHaveLength(3)
    } finally {
      for (const log of logs) await log.close()
    }
  })

  it.skipIf(!up)('writesAnEntryOnceUnderItsRequestKeyAndFindsItByThatKey', async () => {
    const [log, other] = [open(), open()]
    try {
      await log.seed('keyed', SEED)
      const entry = {
        service: 'keyed',
        kind: 'rollback' as const,
        version: '1.0.0',
        by: 'test',
        requestKey: `k-${run}`,
      }
      expect(await log.byRequestKey(`k-${run}`)).toBeUndefined()
      const first = await log.append(entry, 'seed:keyed:2')
      expect(first).toMatchObject({ ok: true, deployment: { seq: 3 } })
      expect(first.ok && first.earlier).toBeUndefined()
      // Decided on the old head again, from another connection: the key wins over the head check.
      const again = await other.append(entry, 'seed:keyed:2')
      expect(again).toEqual({ ok: true, deployment: first.ok ? first.deployment : undefined, earlier: true })
      expect(await other.byRequestKey(`k-${run}`)).toEqual(first.ok ? first.deployment : undefined)
      expect(await log.history('keyed')).toHaveLength(3)
      expect(JSON.stringify(await log.history('keyed'))).not.toContain(`k-${run}`)
    } finally {
      await log.close()
      await other.close()
    }
  })
})
