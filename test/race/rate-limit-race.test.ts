/**
 * @module rate-limit-race.test
 * The rate limiter's stores under real concurrency: four worker processes sharing only the store
 * take from one bucket at one wall-clock instant, 25 takes each, round after round. The bucket
 * holds 10 and refills in ten minutes, so across the processes exactly 10 takes of each round are
 * allowed: one more would be a token given twice. SQLite shares a file, Redis and PostgreSQL a
 * server; without their URLs those two are skipped and say why.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import type { RateLimitWorkerConfig } from './race-stores.ts'
import { WorkerProcess } from './worker-process.ts'

const WORKER = fileURLToPath(new URL('./rate-limit-worker.ts', import.meta.url))
const WORKERS = 4
const ROUNDS = 5
const BUCKET = { capacity: 10, refillMs: 600_000 }
const TAKES_PER_ROUND = 25
const run = randomBytes(5).toString('hex')
const dir = mkdtempSync(join(tmpdir(), 'tessera-rate-limit-race-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const redisUrl = process.env['TESSERA_TEST_REDIS_URL']
const postgresUrl = process.env['TESSERA_TEST_POSTGRES_URL']

interface Backend {
  config: Omit<RateLimitWorkerConfig, 'bucket' | 'takesPerRound'>
  skip?: string
  cleanup(): Promise<void>
}

const backends: Backend[] = [
  {
    config: { backend: 'sqlite', target: join(dir, 'limits.db'), namespace: `limits_${run}` },
    cleanup: async () => {},
  },
  {
    config: { backend: 'redis', target: redisUrl ?? '', namespace: `tessera-limit-race:${run}:` },
    ...(redisUrl ? {} : { skip: 'TESSERA_TEST_REDIS_URL is not set' }),
    async cleanup() {
      const admin = new Redis(redisUrl!)
      const keys = await admin.keys(`tessera-limit-race:${run}:*`)
      if (keys.length > 0) await admin.del(...keys)
      await admin.quit()
    },
  },
  {
    config: { backend: 'postgres', target: postgresUrl ?? '', namespace: `tessera_limit_race_${run}` },
    ...(postgresUrl ? {} : { skip: 'TESSERA_TEST_POSTGRES_URL is not set' }),
    async cleanup() {
      const admin = new pg.Pool({ connectionString: postgresUrl! })
      await admin.query(`DROP TABLE IF EXISTS "tessera_limit_race_${run}"`)
      await admin.end()
    },
  },
]

async function raceRounds(backend: Backend): Promise<void> {
  const config: RateLimitWorkerConfig = { ...backend.config, bucket: BUCKET, takesPerRound: TAKES_PER_ROUND }
  const workers = Array.from({ length: WORKERS }, () => new WorkerProcess(WORKER, config))
  try {
    await Promise.all(workers.map((worker) => worker.next('ready', 20_000)))
    for (let round = 1; round <= ROUNDS; round++) {
      const key = `race:${run}:${round}`
      // One wall-clock instant for all: the workers sleep until it, so they reach the store together.
      const at = Date.now() + 50
      for (const worker of workers) worker.send({ key, at })
      const reports = await Promise.all(workers.map((worker) => worker.next('round')))
      const detail = `round ${round}: ${JSON.stringify(reports)}`
      expect(
        reports.every((report) => report['failed'] === 0),
        detail,
      ).toBe(true)
      const allowed = reports.reduce((sum, report) => sum + Number(report['allowed']), 0)
      expect(allowed, detail).toBe(BUCKET.capacity)
    }
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()))
    await backend.cleanup()
  }
}

for (const backend of backends) {
  const name = backend.config.backend
  if (backend.skip) process.stderr.write(`rate-limit race on ${name} skipped: ${backend.skip}\n`)
  describe.skipIf(backend.skip !== undefined)(`rate limits across processes on ${name}`, () => {
    it('neverAdmitsMoreThanTheBucketHoldsToFourProcessesTakingAtOnce', () => raceRounds(backend), 60_000)
  })
}
