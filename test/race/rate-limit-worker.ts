/**
 * @module rate-limit-worker
 * A worker process for the rate-limit race test, spawned with `node --import tsx`. It opens the
 * backend's RateLimitStore, says `ready`, then for every round on stdin (a key and a wall-clock
 * instant) sleeps until that instant and takes from the bucket many times at once, and reports how
 * many takes were allowed. Separate processes sharing nothing but the store are the point.
 */
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import type { RateLimitStore } from '@tessera/core/ports'
import { postgresRateLimitStore } from '@tessera/store-postgres'
import { redisRateLimitStore } from '@tessera/store-redis'
import { sqliteRateLimitStore } from '@tessera/store-sqlite'
import type { RateLimitRound, RateLimitWorkerConfig } from './race-stores.ts'

function report(message: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ ...message, pid: process.pid })}\n`)
}

function openStore(config: RateLimitWorkerConfig): RateLimitStore {
  if (config.backend === 'sqlite')
    return sqliteRateLimitStore({ path: config.target, table: config.namespace })
  if (config.backend === 'redis')
    return redisRateLimitStore({ url: config.target, keyPrefix: config.namespace })
  return postgresRateLimitStore({ connectionString: config.target, table: config.namespace })
}

async function round(store: RateLimitStore, config: RateLimitWorkerConfig, command: RateLimitRound) {
  await sleep(Math.max(0, command.at - Date.now()))
  const takes = await Promise.allSettled(
    Array.from({ length: config.takesPerRound }, () => store.take(command.key, config.bucket)),
  )
  const allowed = takes.filter((take) => take.status === 'fulfilled' && take.value.allowed).length
  const failed = takes.filter((take) => take.status === 'rejected').length
  report({ type: 'round', key: command.key, allowed, failed })
}

async function main(config: RateLimitWorkerConfig): Promise<void> {
  const store = openStore(config)
  // The first take opens the connection and makes the table, before the rounds start.
  await store.take(`warm-up:${process.pid}`, config.bucket)
  report({ type: 'ready' })
  const rounds: Promise<void>[] = []
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() !== '') rounds.push(round(store, config, JSON.parse(line) as RateLimitRound))
  }
  await Promise.all(rounds)
  await store.close()
}

main(JSON.parse(process.argv[2]!) as RateLimitWorkerConfig).catch((error: unknown) => {
  report({ type: 'fatal', message: String(error) })
  process.exitCode = 1
})
