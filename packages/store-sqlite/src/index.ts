/**
 * @module store-sqlite
 * SQLite-backed single-use record store for Tessera: one file shared by the processes of one host.
 */
export type { SqliteReplayStoreOptions } from './sqlite-store.ts'
export { sqliteReplayStore } from './sqlite-store.ts'
