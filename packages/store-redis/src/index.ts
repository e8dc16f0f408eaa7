/**
 * @module store-redis
 * Redis stores for Tessera deployments with several hosts: single-use records, handshake-era
 * sessions and resumable stream events, and the server event bus (pub/sub).
 */

export type { RedisEventStoreOptions } from './redis-event-store.ts'
export { redisEventStore } from './redis-event-store.ts'
export type { RedisNotificationBusOptions } from './redis-notification-bus.ts'
export { redisNotificationBus } from './redis-notification-bus.ts'
export type { RedisSessionStoreOptions } from './redis-session-store.ts'
export { redisSessionStore } from './redis-session-store.ts'
export type { RedisReplayStoreOptions } from './redis-store.ts'
export { redisReplayStore } from './redis-store.ts'
