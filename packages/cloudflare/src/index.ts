/**
 * @module cloudflare
 * Tessera on Cloudflare Workers: the stores every isolate of a Worker shares (single-use records,
 * tasks, rate-limit buckets, the event bus) in one Durable Object. Export `TesseraDurableObject` from the Worker,
 * bind it, and pass `durableObjectStores(env.BINDING)` as `stores` to `createServer`.
 */
export type { DurableObjectBus } from './durable-object-bus.ts'
export type { DurableObjectStores, DurableObjectStoresOptions } from './durable-object-stores.ts'
export { durableObjectStores } from './durable-object-stores.ts'
export type { DurableObjectNamespaceLike } from './object-stub.ts'
export { TesseraDurableObject } from './tessera-durable-object.ts'
