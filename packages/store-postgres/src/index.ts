/**
 * @module store-postgres
 * PostgreSQL stores for Tessera, shared by every host that reaches the database: single-use
 * records, tasks, rate-limit buckets, the sessions and resumable stream events of the 2025-11-25 handshake era, and
 * the server event bus (LISTEN/NOTIFY). `postgresStores` builds all of them over one pool; the factories
 * of each store remain for custom layouts.
 */
export type { PostgresEventStoreOptions } from './postgres-event-store.ts'
export { postgresEventStore } from './postgres-event-store.ts'
export type { PostgresNotificationBus, PostgresNotificationBusOptions } from './postgres-notification-bus.ts'
export { MAX_NOTIFY_PAYLOAD_BYTES, postgresNotificationBus } from './postgres-notification-bus.ts'
export type { PostgresRateLimitStoreOptions } from './postgres-rate-limit-store.ts'
export { postgresRateLimitStore } from './postgres-rate-limit-store.ts'
export type { PostgresReplayStoreOptions } from './postgres-replay-store.ts'
export { postgresReplayStore } from './postgres-replay-store.ts'
export type { PostgresSessionStoreOptions } from './postgres-session-store.ts'
export { postgresSessionStore } from './postgres-session-store.ts'
export type { PostgresStores, PostgresStoresOptions } from './postgres-stores.ts'
export { postgresStores } from './postgres-stores.ts'
export type { PostgresTaskStoreOptions } from './postgres-task-store.ts'
export { postgresTaskStore } from './postgres-task-store.ts'
