/**
 * @module backends
 * Opens what a server process needs, always from the same backend: the deployment log and the
 * framework's stores (single-use records, 2025-11-25 sessions and stream events, the event bus)
 * live together, so "what was answered" and "what was done" are as shared as each other: one
 * host for SQLite (its workers relay events through the primary), every host for Redis or
 * PostgreSQL.
 */
import type { Stores } from '@tessera/core'
import type { StoreChoice } from '../cli.ts'
import type { DeploymentLog } from '../deployments/deployment-log.ts'

/** What a backend opens; each call opens its own connection or handle. */
export interface Backend {
  deploymentLog(): DeploymentLog
  stores(): Stores
}

/**
 * The backend `store` names. Its module (and its driver: better-sqlite3, ioredis or pg) is loaded
 * only when chosen, so a process on SQLite never loads the Redis and PostgreSQL clients.
 */
export async function backendFor(store: StoreChoice): Promise<Backend> {
  switch (store.kind) {
    case 'sqlite':
      return (await import('./backend-sqlite.ts')).sqliteBackend(store.path)
    case 'redis':
      return (await import('./backend-redis.ts')).redisBackend(store.url)
    case 'postgres':
      return (await import('./backend-postgres.ts')).postgresBackend(store.url)
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
