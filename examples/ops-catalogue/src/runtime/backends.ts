/**
 * @module backends
 * Opens the two stores a server needs, always from the same backend: the single-use records and
 * the deployment log live together, so "what was answered" and "what was done" are as shared as
 * each other (one host for SQLite, every host for Redis or PostgreSQL).
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { HandshakeOptions, NotificationBus, ReplayStore } from '@tessera/core'
import { clusterNotificationBus } from '@tessera/core/cluster'
import {
  postgresEventStore,
  postgresNotificationBus,
  postgresReplayStore,
  postgresSessionStore,
} from '@tessera/store-postgres'
import {
  redisEventStore,
  redisNotificationBus,
  redisReplayStore,
  redisSessionStore,
} from '@tessera/store-redis'
import { sqliteEventStore, sqliteReplayStore, sqliteSessionStore } from '@tessera/store-sqlite'
import type { StoreChoice } from '../cli.ts'
import type { DeploymentLog } from '../deployments/deployment-log.ts'
import { postgresDeploymentLog } from '../deployments/postgres-deployment-log.ts'
import { redisDeploymentLog } from '../deployments/redis-deployment-log.ts'
import { sqliteDeploymentLog } from '../deployments/sqlite-deployment-log.ts'

export interface Backends {
  log: DeploymentLog
  replayStore: ReplayStore
  /** Where they live, for the start-up log line (no credentials). */
  describe: string
}

/** What the 2025-11-25 handshake era shares between workers: sessions, stream events, the bus. */
export interface SessionBackends {
  handshake: HandshakeOptions
  bus: NotificationBus
}

export function openBackends(store: StoreChoice): Backends {
  switch (store.kind) {
    case 'sqlite':
      mkdirSync(dirname(store.path), { recursive: true, mode: 0o700 })
      return {
        log: sqliteDeploymentLog({ path: store.path }),
        replayStore: sqliteReplayStore({ path: store.path, table: 'ops_single_use' }),
        describe: `sqlite ${store.path}`,
      }
    case 'redis':
      return {
        log: redisDeploymentLog({ url: store.url, keyPrefix: 'ops-catalogue:' }),
        replayStore: redisReplayStore({ url: store.url, keyPrefix: 'ops-catalogue:single-use:' }),
        describe: `redis ${redact(store.url)}`,
      }
    case 'postgres':
      return {
        log: postgresDeploymentLog({ connectionString: store.url, table: 'ops_deployments' }),
        replayStore: postgresReplayStore({ connectionString: store.url, table: 'ops_single_use' }),
        describe: `postgres ${redact(store.url)}`,
      }
  }
}

/**
 * Handshake-era state, shared as widely as the rest: between hosts in Redis or PostgreSQL;
 * otherwise in a SQLite file of the data folder, shared by the workers of this host, with the
 * primary relaying events between them.
 */
export function openSessionBackends(store: StoreChoice, sessionsPath: string): SessionBackends {
  if (store.kind === 'postgres') {
    return {
      handshake: {
        sessions: postgresSessionStore({ connectionString: store.url, table: 'ops_sessions' }),
        events: postgresEventStore({ connectionString: store.url, table: 'ops_stream_events' }),
      },
      bus: postgresNotificationBus({ connectionString: store.url, channel: 'ops_catalogue_bus' }),
    }
  }
  if (store.kind === 'redis') {
    return {
      handshake: {
        sessions: redisSessionStore({ url: store.url, keyPrefix: 'ops-catalogue:session:' }),
        events: redisEventStore({ url: store.url, keyPrefix: 'ops-catalogue:events:' }),
      },
      bus: redisNotificationBus({ url: store.url, channel: 'ops-catalogue:bus' }),
    }
  }
  mkdirSync(dirname(sessionsPath), { recursive: true, mode: 0o700 })
  return {
    handshake: {
      sessions: sqliteSessionStore({ path: sessionsPath, table: 'ops_sessions' }),
      events: sqliteEventStore({ path: sessionsPath, table: 'ops_stream_events' }),
    },
    bus: clusterNotificationBus(),
  }
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
