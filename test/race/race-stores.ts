/**
 * @module race-stores
 * What the race tests and their worker processes share: the worker configurations, the
 * command formats and how a backend's replay store is opened. Kept apart from the worker so the
 * test can import it without running a worker's main loop.
 */
import type { ReplayStore } from '@tessera/core/ports'
import { postgresReplayStore } from '@tessera/store-postgres'
import { redisReplayStore } from '@tessera/store-redis'
import { sqliteReplayStore } from '@tessera/store-sqlite'

export interface WorkerConfig {
  backend: 'sqlite' | 'redis' | 'postgres'
  /** sqlite file, redis URL or postgres connection string. */
  target: string
  /** redis key prefix or postgres/sqlite table. */
  namespace: string
  mode: 'race' | 'hold'
  logPath: string
  leaseMs: number
  renewEveryMs: number
  workMs: number
  key?: string
}

export interface AttemptCommand {
  type: 'attempt'
  round: number
  key: string
  at: number
}

export function openStore(config: Pick<WorkerConfig, 'backend' | 'target' | 'namespace'>): ReplayStore {
  if (config.backend === 'sqlite') return sqliteReplayStore({ path: config.target, table: config.namespace })
  if (config.backend === 'redis') return redisReplayStore({ url: config.target, keyPrefix: config.namespace })
  return postgresReplayStore({ connectionString: config.target, table: config.namespace })
}

/** A rate-limit worker: its backend, and the bucket it takes from `takesPerRound` times at once. */
export interface RateLimitWorkerConfig {
  backend: WorkerConfig['backend']
  target: string
  namespace: string
  bucket: { capacity: number; refillMs: number }
  takesPerRound: number
}

/** One round of a rate-limit worker: the bucket's key and the wall-clock instant to start at. */
export interface RateLimitRound {
  key: string
  at: number
}
