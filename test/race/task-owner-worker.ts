/**
 * @module task-owner-worker
 * A worker process for the owner-bound race test, spawned with `node --import tsx`. It opens the
 * task store of the backend it is given, makes one call so its connection and table are ready,
 * says `ready` on stdout, then waits for one line on stdin naming a wall-clock instant; at that
 * instant it makes all its creates (the tasks it is given, of one owner) at once and prints what
 * each answered.
 * Separate processes are the point: a count-then-insert race only shows between workers that
 * share nothing but the store.
 */
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import type { TaskRecord, TaskStore } from '@tessera/core/ports'
import { postgresTaskStore } from '@tessera/store-postgres'
import { redisTaskStore } from '@tessera/store-redis'
import { sqliteTaskStore } from '@tessera/store-sqlite'

export interface OwnerWorkerConfig {
  backend: 'sqlite' | 'redis' | 'postgres'
  /** sqlite file, redis URL or postgres connection string. */
  target: string
  /** redis key prefix or sqlite/postgres table. */
  namespace: string
  /** The tasks this worker creates, all of one owner. */
  tasks: TaskRecord[]
  maxPerOwner: number
}

function openTasks(config: OwnerWorkerConfig): TaskStore {
  if (config.backend === 'sqlite') return sqliteTaskStore({ path: config.target, table: config.namespace })
  if (config.backend === 'redis') return redisTaskStore({ url: config.target, keyPrefix: config.namespace })
  return postgresTaskStore({ connectionString: config.target, table: config.namespace })
}

function report(message: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ ...message, pid: process.pid })}\n`)
}

async function main(config: OwnerWorkerConfig): Promise<void> {
  const store = openTasks(config)
  await store.get('warm-up')
  report({ type: 'ready' })
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
  const { value } = await lines.next()
  const { at } = JSON.parse(String(value)) as { at: number }
  await sleep(Math.max(0, at - Date.now()))
  const limits = { maxPerOwner: config.maxPerOwner }
  const results = await Promise.all(config.tasks.map((task) => store.create(task, limits)))
  report({ type: 'results', results })
  await store.close()
  process.stdin.destroy()
}

main(JSON.parse(process.argv[2] ?? '{}') as OwnerWorkerConfig).catch((error: unknown) => {
  report({ type: 'fatal', message: String(error) })
  process.exitCode = 1
})
