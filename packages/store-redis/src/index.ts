/**
 * @module store-redis
 * Redis stores for Tessera deployments with several hosts: single-use records, tasks,
 * rate-limit buckets, handshake-era sessions and resumable stream events, and the server event bus (pub/sub).
 * `redisStores` builds all of them over one connection; the factories of each store remain for custom layouts.
 */
export type { RedisEventStoreOptions } from './redis-event-store.ts'
export { redisEventStore } from './redis-event-store.ts'
export type { RedisNotificationBus, RedisNotificationBusOptions } from './redis-notification-bus.ts'
export { redisNotificationBus } from './redis-notification-bus.ts'
export type { RedisRateLimitStoreOptions } from './redis-rate-limit-store.ts'
export { redisRateLimitStore } from './redis-rate-limit-store.ts'
export type { RedisReplayStoreOptions } from './redis-replay-store.ts'
export { redisReplayStore } from './redis-replay-store.ts'
export type { RedisSessionStoreOptions } from './redis-session-store.ts'
export { redisSessionStore } from './redis-session-store.ts'
export type { RedisStores, RedisStoresOptions } from './redis-stores.ts'
export { redisStores } from './redis-stores.ts'
export type { RedisTaskStoreOptions } from './redis-task-store.ts'
export { redisTaskStore } from './redis-task-store.ts'
