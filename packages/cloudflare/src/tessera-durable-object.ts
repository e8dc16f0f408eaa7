/**
 * @module tessera-durable-object
 * The Durable Object that a Worker's isolates share: single-use records, tasks and rate-limit
 * buckets in its SQLite storage, and the bus, a fan-out of every published event to the WebSockets the isolates hold
 * open to it. Its methods are called over RPC by `durableObjectStores`; a Worker only exports the
 * class and binds it.
 */
import { DurableObject } from 'cloudflare:workers'
import {
  type BucketTake,
  type ClaimConditions,
  type ClaimResult,
  type ReplayRecordView,
  type TaskCreation,
  type TaskLimits,
  type TaskRecord,
  type TokenBucket,
  UpgradeStatus,
} from '@tessera/core/ports'
import { ObjectBus } from './object-bus.ts'
import { ObjectRateLimits } from './object-rate-limits.ts'
import { ObjectReplayRecords } from './object-replay-records.ts'
import { ObjectTaskRecords } from './object-task-records.ts'

/**
 * The Durable Object class behind `durableObjectStores`. Export it from the Worker's entry module
 * and bind it as a SQLite-backed namespace (`new_sqlite_classes` in the Worker's migrations).
 *
 * @example
 * ```ts
 * import { TesseraDurableObject } from '@tessera/cloudflare'
 * export { TesseraDurableObject }
 * ```
 *
 * @hideconstructor The runtime makes each object; a Worker never calls `new`.
 */
export class TesseraDurableObject extends DurableObject {
  // Field initialisers run once the runtime's constructor has set `ctx`: the tables are opened then.
  readonly #replay = new ObjectReplayRecords(this.ctx.storage.sql)
  readonly #tasks = new ObjectTaskRecords(this.ctx.storage.sql)
  readonly #rateLimits = new ObjectRateLimits(this.ctx.storage.sql)
  readonly #bus = new ObjectBus(() => this.ctx.getWebSockets())

  /** Claims a single-use key (see `ReplayStore.claim`): the check and the write are one step. */
  claim(
    key: string,
    what: string,
    leaseMs: number,
    ttlMs: number,
    conditions?: ClaimConditions,
  ): ClaimResult {
    return this.#replay.claim(key, what, leaseMs, ttlMs, conditions)
  }

  /** The records' epoch, made once when missing (see `ReplayStore.epoch`). */
  epoch(): string {
    return this.#replay.epoch()
  }

  /** Extends a claim's lease while its fence holds (see `ReplayStore.renew`). */
  renew(key: string, fence: string, leaseMs: number): boolean {
    return this.#replay.renew(key, fence, leaseMs)
  }

  /** Records a claim's outcome while its fence holds (see `ReplayStore.complete`). */
  complete(key: string, fence: string, outcome: string): boolean {
    return this.#replay.complete(key, fence, outcome)
  }

  /** Deletes a claim's record while its fence holds (see `ReplayStore.release`). */
  release(key: string, fence: string): void {
    this.#replay.release(key, fence)
  }

  /** What a record says, for diagnostics and tests (see `ReplayStore.inspect`). */
  inspect(key: string): ReplayRecordView | undefined {
    return this.#replay.inspect(key)
  }

  /** Stores a new task within its owner's bound (see `TaskStore.create`). */
  createTask(task: TaskRecord, limits?: TaskLimits): TaskCreation {
    return this.#tasks.create(task, limits)
  }

  /** A task, unless unknown or expired (see `TaskStore.get`). */
  getTask(id: string): TaskRecord | undefined {
    return this.#tasks.get(id)
  }

  /** Replaces a task still at `version` (see `TaskStore.replace`). */
  replaceTask(id: string, version: number, next: TaskRecord): boolean {
    return this.#tasks.replace(id, version, next)
  }

  /** Takes one token from a rate-limit bucket (see `RateLimitStore.take`): read, refill, take and write are one step. */
  takeToken(key: string, bucket: TokenBucket): BucketTake {
    return this.#rateLimits.take(key, bucket)
  }

  /**
   * Sends one sender's bus messages to every subscribed socket, in the order it numbered them;
   * `inFlightFrom` is the lowest number it still had in flight (see `ObjectBus.publish`).
   */
  publish(messages: string[], inFlightFrom?: number): void {
    this.#bus.publish(messages, inFlightFrom)
  }

  /** A subscription: a WebSocket the object keeps (and may hibernate with) until its subscriber closes it. */
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket') {
      return new Response('This object answers WebSocket subscriptions and RPC only.', {
        status: UpgradeStatus.upgradeRequired,
      })
    }
    const Pair = Reflect.get(globalThis, 'WebSocketPair') as new () => Record<0 | 1, WebSocket>
    const pair = new Pair()
    this.ctx.acceptWebSocket(pair[1])
    return new Response(null, {
      status: UpgradeStatus.switchingProtocols,
      webSocket: pair[0],
    } as ResponseInit)
  }

  /** Subscribers only listen: anything they send is ignored. */
  webSocketMessage(): void {}

  /** A subscriber closed its socket: the object closes its end too. */
  webSocketClose(socket: WebSocket, code: number): void {
    try {
      socket.close(code === 1005 || code === 1006 ? 1000 : code, 'unsubscribed')
    } catch {
      // Already closed.
    }
  }
}
