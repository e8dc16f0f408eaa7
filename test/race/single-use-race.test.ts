/**
 * @module single-use-race.test
 * The single-use guard under real concurrency: separate worker processes sharing only
 * the store. Sequential retries can never show a check-then-act race, so each round
 * releases four workers at one wall-clock instant on the same nonce and the execution
 * log, not the record, is what gets counted. A SIGKILL mid-work checks that a dead
 * worker's key frees up only after its lease, and says so.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import type { ReplayStore } from '@tessera/core/ports'
import { createSingleUseGuard } from '@tessera/core/ports'
import { Redis } from 'ioredis'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import type { WorkerConfig } from './race-stores.ts'
import { openStore } from './race-stores.ts'
import { WorkerProcess } from './worker-process.ts'

const WORKER = fileURLToPath(new URL('./race-worker.ts', import.meta.url))
const spawnWorker = (config: WorkerConfig) => new WorkerProcess(WORKER, config)
const WORKERS = 4
const ROUNDS = 8
const run = randomBytes(5).toString('hex')
const dir = mkdtempSync(join(tmpdir(), 'tessera-race-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Backend {
  name: WorkerConfig['backend']
  target: string | undefined
  namespace: string
  skip?: string
  cleanup(): Promise<void>
}

const redisUrl = process.env['TESSERA_TEST_REDIS_URL']
const postgresUrl = process.env['TESSERA_TEST_POSTGRES_URL']

const backends: Backend[] = [
  {
    name: 'sqlite',
    target: join(dir, 'replay.db'),
    namespace: `race_${run}`,
    cleanup: async () => {},
  },
  {
    name: 'redis',
    target: redisUrl,
    namespace: `tessera-race:${run}:`,
    ...(redisUrl ? {} : { skip: 'TESSERA_TEST_REDIS_URL is not set' }),
    async cleanup() {
      const admin = new Redis(redisUrl!)
      const keys = await admin.keys(`tessera-race:${run}:*`)
      if (keys.length > 0) await admin.del(...keys)
      await admin.quit()
    },
  },
  {
    name: 'postgres',
    target: postgresUrl,
    namespace: `tessera_race_${run}`,
    ...(postgresUrl ? {} : { skip: 'TESSERA_TEST_POSTGRES_URL is not set' }),
    async cleanup() {
      const admin = new pg.Pool({ connectionString: postgresUrl! })
      await admin.query(`DROP TABLE IF EXISTS "tessera_race_${run}"`)
      await admin.end()
    },
  },
]

function configFor(
  backend: Backend,
  mode: WorkerConfig['mode'],
  logPath: string,
  extra: Partial<WorkerConfig>,
) {
  return {
    backend: backend.name,
    target: backend.target!,
    namespace: backend.namespace,
    mode,
    logPath,
    leaseMs: 2_000,
    renewEveryMs: 500,
    workMs: 100,
    ...extra,
  } satisfies WorkerConfig
}

function executionLog(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean)
}

async function raceRounds(backend: Backend): Promise<void> {
  const logPath = join(dir, `${backend.name}-race.log`)
  writeFileSync(logPath, '')
  const workers = Array.from({ length: WORKERS }, () => spawnWorker(configFor(backend, 'race', logPath, {})))
  try {
    await Promise.all(workers.map((w) => w.next('ready')))
    for (let round = 1; round <= ROUNDS; round++) await oneRound(workers, round)
  } finally {
    await Promise.all(workers.map((w) => w.stop()))
  }
  const log = executionLog(logPath)
  expect(log).toHaveLength(ROUNDS)
  expect(log.map((line) => Number(line.split(' ')[0]))).toEqual(
    Array.from({ length: ROUNDS }, (_, i) => i + 1),
  )
}

async function oneRound(workers: WorkerProcess[], round: number): Promise<void> {
  const key = `race:${run}:${round}`
  const what = `rollback round ${round}`
  // One wall-clock instant for all: the workers sleep until it, so they reach the store together.
  const at = Date.now() + 50
  for (const worker of workers) worker.send({ type: 'attempt', round, key, at })
  const results = await Promise.all(workers.map((w) => w.next('result')))
  const executed = results.filter((r) => r['status'] === 'executed')
  expect(executed, `round ${round}: ${JSON.stringify(results)}`).toHaveLength(1)
  const outcome = executed[0]!['outcome']
  for (const other of results.filter((r) => r['status'] !== 'executed')) {
    if (other['status'] === 'in_progress') expect(other).toMatchObject({ what })
    else expect(other).toMatchObject({ status: 'duplicate', what, outcome })
  }
  // A retry after the work finished hears what was accepted, and runs nothing.
  const late = workers[round % WORKERS]!
  late.send({ type: 'attempt', round, key, at: 0 })
  expect(await late.next('result')).toMatchObject({ status: 'duplicate', what, outcome })
}

function claimKind(store: ReplayStore, key: string): Promise<string> {
  return store.claim(key, 'intruder', 60_000, 60_000).then((r) => r.kind)
}

async function killMidWork(backend: Backend): Promise<void> {
  const logPath = join(dir, `${backend.name}-kill.log`)
  writeFileSync(logPath, '')
  const key = `kill:${run}`
  const leaseMs = 600
  const worker = spawnWorker(configFor(backend, 'hold', logPath, { key, leaseMs, renewEveryMs: 100 }))
  const store = openStore({ backend: backend.name, target: backend.target!, namespace: backend.namespace })
  try {
    await worker.next('working')
    // The nonce is held for the whole operation: refused from inside the work, and from here.
    expect((await worker.next('probe'))['kind']).toBe('in_progress')
    expect(await claimKind(store, key)).toBe('in_progress')
    await sleep(leaseMs * 2)
    expect(await claimKind(store, key)).toBe('in_progress')
    expect(await store.inspect(key)).toEqual({ status: 'in_progress', what: 'long rollback' })

    worker.child.kill('SIGKILL')
    expect(await worker.exited).toBe('SIGKILL')
    // Dead, but its lease has not run out: the key is not free yet.
    expect(await claimKind(store, key)).toBe('in_progress')
    await sleep(leaseMs + 150)
    expect(await store.inspect(key)).toEqual({ status: 'abandoned', what: 'long rollback' })

    const guard = createSingleUseGuard({ store, leaseMs: 2_000 })
    const retry = await guard.run(
      key,
      'long rollback',
      60_000,
      async () => 'rolled back',
      (v) => v,
    )
    expect(retry).toEqual({
      status: 'executed',
      value: 'rolled back',
      outcome: 'rolled back',
      previous: 'abandoned',
    })
    expect(await store.inspect(key)).toEqual({
      status: 'done',
      what: 'long rollback',
      outcome: 'rolled back',
    })
    expect(executionLog(logPath)).toHaveLength(1)
  } finally {
    worker.child.kill('SIGKILL')
    await store.close()
  }
}

for (const backend of backends) {
  if (backend.skip) console.warn(`single-use race tests for ${backend.name} skipped: ${backend.skip}`)
  describe.skipIf(backend.skip !== undefined)(`single-use guard across processes: ${backend.name}`, () => {
    afterAll(() => backend.cleanup())

    it(`runsTheAction${ROUNDS}TimesFor${ROUNDS}RoundsOf${WORKERS}SimultaneousWorkers`, () =>
      raceRounds(backend))

    it('holdsTheNonceForTheWholeOperationAndFreesItOnlyAfterAKilledWorkersLease', () => killMidWork(backend))
  })
  if (backend.skip) it.skip(`${backend.name}SkippedBecause${backend.skip}`, () => {})
}
