/**
 * @module durable-object-stores
 * The stores of a server on Cloudflare Workers, all in one Durable Object that every isolate of the
 * Worker reaches: single-use records, tasks, rate-limit buckets and the event bus. Nothing is opened or drawn when the
 * stores are built, so a Worker may build its server, stores included, at module scope.
 */
import {
  assertKnownOptions,
  closeTogether,
  type OptionNames,
  type RateLimitStore,
  type ReplayStore,
  type TaskStore,
} from '@tessera/core/ports'
import { type DurableObjectBus, durableObjectBus } from './durable-object-bus.ts'
import { durableObjectRateLimitStore } from './durable-object-rate-limit-store.ts'
import { durableObjectReplayStore } from './durable-object-replay-store.ts'
import { durableObjectTaskStore } from './durable-object-task-store.ts'
import { type DurableObjectNamespaceLike, objectStubs } from './object-stub.ts'

/** Which object of the namespace holds the stores, and who hears of the bus's failures. */
export interface DurableObjectStoresOptions {
  /**
   * The name of the object in the namespace (default `tessera`). Servers that must not share
   * records (two applications on one namespace) take different names.
   */
  name?: string
  /** Called when a bus message cannot be sent or read, or a listener throws; delivery goes on. */
  onError?: (error: Error) => void
}

const STORES_OPTION_NAMES = {
  name: true,
  onError: true,
} as const satisfies OptionNames<DurableObjectStoresOptions>

/** What `durableObjectStores` builds: pass it as `stores` to `createServer`. */
export interface DurableObjectStores {
  /** Single-use records, claimed in one step inside the object. */
  replay: ReplayStore
  /** Tasks, created within their owner's bound and replaced by version inside the object. */
  tasks: TaskStore
  /** Rate-limit buckets, taken from in one step inside the object. */
  rateLimits: RateLimitStore
  /** The event bus: the object sends every event to the subscriptions of every isolate. */
  bus: DurableObjectBus
}

/**
 * The stores every isolate of a Worker shares, in the Durable Object `name` of `namespace` (a
 * binding of `TesseraDurableObject`).
 *
 * @example
 * ```ts
 * import { createServer } from '@tessera/core'
 * import { createFetchHandler, type FetchContext } from '@tessera/core/http'
 * import { type DurableObjectNamespaceLike, durableObjectStores, TesseraDurableObject } from '@tessera/cloudflare'
 *
 * export { TesseraDurableObject }
 *
 * interface Env {
 *   TESSERA: DurableObjectNamespaceLike
 *   STATE_KEY: string
 * }
 *
 * // Built on the first request (the bindings come with it), then kept for the isolate's life.
 * let handler: ReturnType<typeof createFetchHandler> | undefined
 * export default {
 *   fetch(request: Request, env: Env, context: FetchContext) {
 *     handler ??= createFetchHandler(
 *       createServer({
 *         name: 'ops',
 *         version: '1.0.0',
 *         requestState: { keys: [{ id: '2026-12', secret: env.STATE_KEY }] },
 *         stores: durableObjectStores(env.TESSERA),
 *       }),
 *     )
 *     return handler(request, env, context)
 *   },
 * }
 * ```
 */
export function durableObjectStores(
  namespace: DurableObjectNamespaceLike,
  options: DurableObjectStoresOptions = {},
): DurableObjectStores {
  assertKnownOptions(options, STORES_OPTION_NAMES, 'durableObjectStores')
  const stub = objectStubs(namespace, options.name ?? 'tessera', 'durableObjectStores')
  return closeTogether(
    {
      replay: durableObjectReplayStore(stub),
      tasks: durableObjectTaskStore(stub),
      rateLimits: durableObjectRateLimitStore(stub),
      bus: durableObjectBus(stub, options.onError),
    },
    async () => {},
  )
}
