/**
 * @module store-sqlite
 * SQLite stores for Tessera, shared by the processes of one host: single-use records, tasks, and
 * the sessions and resumable stream events of the 2025-11-25 handshake era. `sqliteStores` builds
 * all of them over one file; the factories of each store remain for custom layouts.
 */
export type { SqliteEventStoreOptions } from './sqlite-event-store.ts'
export { sqliteEventStore } from './sqlite-event-store.ts'
export type { SqliteRateLimitStoreOptions } from './sqlite-rate-limit-store.ts'
export { sqliteRateLimitStore } from './sqlite-rate-limit-store.ts'
export type { SqliteReplayStoreOptions } from './sqlite-replay-store.ts'
export { sqliteReplayStore } from './sqlite-replay-store.ts'
export type { SqliteSessionStoreOptions } from './sqlite-session-store.ts'
export { sqliteSessionStore } from './sqlite-session-store.ts'
export type { SqliteStores, SqliteStoresOptions } from './sqlite-stores.ts'
export { sqliteStores } from './sqlite-stores.ts'
export type { SqliteTaskStoreOptions } from './sqlite-task-store.ts'
export { sqliteTaskStore } from './sqlite-task-store.ts'
