/**
 * @module store-redis
 * Redis-backed single-use record store for Tessera: shared by every host that reaches the server.
 */

export type { RedisEventStoreOptions } from './redis-event-store.ts'
export { redisEventStore } from './redis-event-store.ts'
export type { RedisSessionStoreOptions } from './redis-session-store.ts'
export { redisSessionStore } from './redis-session-store.ts'
export type { RedisReplayStoreOptions } from './redis-store.ts'
export { redisReplayStore } from './redis-store.ts'
