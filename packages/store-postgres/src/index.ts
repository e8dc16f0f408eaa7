/**
 * @module store-postgres
 * PostgreSQL-backed single-use record store for Tessera: shared by every host that reaches the database.
 */
export type { PostgresReplayStoreOptions } from './postgres-store.ts'
export { postgresReplayStore } from './postgres-store.ts'
