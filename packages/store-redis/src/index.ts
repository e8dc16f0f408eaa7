/**
 * @module store-redis
 * Redis-backed single-use record store for Tessera: shared by every host that reaches the server.
 */
export type { RedisReplayStoreOptions } from './redis-store.ts'
export { redisReplayStore } from './redis-store.ts'
