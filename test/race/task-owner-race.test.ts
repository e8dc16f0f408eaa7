/**
 * @module task-owner-race.test
 * One owner's bound on unexpired tasks under real concurrency, on each shared backend: four
 * worker processes that share only the store release all their creates for one owner at one
 * wall-clock instant, and exactly the bound of them is stored. Promises in one process cannot
 * show this for SQLite (its driver is synchronous, so one process never interleaves a count and
 * an insert); processes can, for every backend.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { TaskCreation } from '@tessera/core/ports'
import { postgresTaskStore } from '@tessera/store-postgres'
import { redisTaskStore } from '@tessera/store-redis'
import { sqliteTaskStore } from '@tessera/store-sqlite'
import { Redis } from 'ioredis'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { freshOwner, sampleTask } from '../contracts/task-store-contract.ts'
import type { OwnerWorkerConfig } from './task-owner-worker.ts'

const redis = process.env['TESSERA_TEST_REDIS_URL']
const postgres = process.env['TESSERA_TEST_POSTGRES_URL']
const WORKER = fileURLToPath(new URL('./task-owner-worker.ts', import.meta.url))
const WORKERS = 4
const CREATES = 5
const MAX = 5
const dir = mkdtempSync(join(tmpdir(), 'tessera-task-owner-'))
const run = randomBytes(4).toString('hex')
const redisPrefix = `tessera-test:${run}:owner-race:`
const table = `task_owner_race_${run}`
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  if (redis) {
    const admin = new Redis(redis)
    const keys = await admin.keys(`${redisPrefix}*`)
    if (keys.length > 0) await admin.del(...keys)
    await admin.quit()
  }
  if (postgres) {
    const admin = new pg.Client({ connectionString: postgres })
    await admin.connect()
    await admin.query(`DROP TABLE IF EXISTS "${table}"`)
    await admin.end()
  }
})

const backends: Array<{ name: OwnerWorkerConfig['backend']; target: string | undefined; skip?: string }> = [
  { name: 'sqlite', target: join(dir, 'tasks.db') },
  { name: 'redis', target: redis, skip: redis ? undefined : 'TESSERA_TEST_REDIS_URL is not set' },
  { name: 'postgres', target: postgres, skip: postgres ? undefined : 'TESSERA_TEST_POSTGRES_URL is not set' },
]
for (const b of backends) if (b.skip) process.stderr.write(`task-owner-race ${b.name} skipped: ${b.skip}\n`)

type Message = { type: string; results?: TaskCreation[]; message?: string }

/** One worker process and the JSON lines it prints, in order. */
function startWorker(config: OwnerWorkerConfig): {
  child: ChildProcessWithoutNullStreams
  next: () => Promise<Message>
} {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(config)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const next = async () => {
    const { value, done } = await lines.next()
    if (done) throw new Error(`worker ${child.pid} ended early: ${stderr}`)
    const message = JSON.parse(String(value)) as Message
    if (message.type === 'fatal') throw new Error(`worker failed: ${message.message}`)
    return message
  }
  return { child, next }
}

function openTasks(name: OwnerWorkerConfig['backend'], target: string, namespace: string) {
  if (name === 'sqlite') return sqliteTaskStore({ path: target, table: namespace })
  if (name === 'redis') return redisTaskStore({ url: target, keyPrefix: namespace })
  return postgresTaskStore({ connectionString: target, table: namespace })
}

describe.each(backends)('one owner racing for its last places, on $name', ({ name, target, skip }) => {
  it.skipIf(skip !== undefined)(
    'storesExactlyTheBoundOfCreatesReleasedAtOnceByFourProcesses',
    async () => {
      const namespace = name === 'redis' ? redisPrefix : table
      const owner = freshOwner()
      const tasks = Array.from({ length: WORKERS }, () =>
        Array.from({ length: CREATES }, () => sampleTask({ owner })),
      )
      const workers = tasks.map((own) =>
        startWorker({ backend: name, target: target!, namespace, tasks: own, maxPerOwner: MAX }),
      )
      try {
        for (const worker of workers) expect((await worker.next()).type).toBe('ready')
        const at = Date.now() + 150
        for (const worker of workers) worker.child.stdin.write(`${JSON.stringify({ at })}\n`)
        const reports = await Promise.all(workers.map((worker) => worker.next()))
        const results = reports.flatMap((report) => report.results ?? [])
        expect(results).toHaveLength(WORKERS * CREATES)
        expect(results.filter((r) => r === 'created')).toHaveLength(MAX)
        expect(results.filter((r) => r === 'owner-full')).toHaveLength(WORKERS * CREATES - MAX)
        const store = openTasks(name, target!, namespace)
        try {
          const stored = await Promise.all(tasks.flat().map((task) => store.get(task.id)))
          expect(stored.filter((task) => task !== undefined)).toHaveLength(MAX)
        } finally {
          await store.close()
        }
      } finally {
        for (const worker of workers) worker.child.kill('SIGKILL')
      }
    },
    30_000,
  )
})
