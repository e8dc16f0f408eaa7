/**
 * @module backends
 * Opens what a server process needs, always from the same backend: the deployment log and the
 * framework's stores (single-use records, 2025-11-25 sessions and stream events, the event bus)
 * live together, so "what was answered" and "what was done" are as shared as each other: one
 * host for SQLite (its workers relay events through the primary), every host for Redis or
 * PostgreSQL.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Stores } from '@tessera/core'
import { postgresStores } from '@tessera/store-postgres'
import { redisStores } from '@tessera/store-redis'
import { sqliteStores } from '@tessera/store-sqlite'
import type { StoreChoice } from '../cli.ts'
import type { DeploymentLog } from '../deployments/deployment-log.ts'
import { postgresDeploymentLog } from '../deployments/postgres-deployment-log.ts'
import { redisDeploymentLog } from '../deployments/redis-deployment-log.ts'
import { sqliteDeploymentLog } from '../deployments/sqlite-deployment-log.ts'

export function openDeploymentLog(store: StoreChoice): DeploymentLog {
  switch (store.kind) {
    case 'sqlite':
      mkdirSync(dirname(store.path), { recursive: true, mode: 0o700 })
      return sqliteDeploymentLog({ path: store.path })
    case 'redis':
      return redisDeploymentLog({ url: store.url, keyPrefix: 'ops-catalogue:' })
    case 'postgres':
      return postgresDeploymentLog({ connectionString: store.url, table: 'ops_deployments' })
  }
}

export function openStores(store: StoreChoice): Stores {
  switch (store.kind) {
    case 'sqlite':
      mkdirSync(dirname(store.path), { recursive: true, mode: 0o700 })
      // No bus: in a cluster worker the default bus relays through the primary.
      return sqliteStores({ path: store.path, prefix: 'ops_' })
    case 'redis':
      return redisStores({ url: store.url, prefix: 'ops-catalogue:' })
    case 'postgres':
      return postgresStores({ connectionString: store.url, prefix: 'ops_' })
  }
}

/** Where the data lives, for the start-up log line (no credentials). */
export function describeStore(store: StoreChoice): string {
  return store.kind === 'sqlite' ? `sqlite ${store.path}` : `${store.kind} ${redact(store.url)}`
}

/** Drops a password from a URL before it reaches a log line. */
export function redact(url: string): string {
  try {
    const u = new URL(url)
    if (u.password !== '') u.password = '***'
    return u.toString()
  } catch {
    return '(unparsable URL)'
  }
}
