/**
 * @module inflight
 * Requests running in this process, by scope (a handshake session, or one stdio connection) and
 * JSON-RPC id, so that `notifications/cancelled` can stop the one it names. An id is typed: 7 and
 * "7" are different requests.
 */
import type { JsonRpcId } from '../protocol/jsonrpc/message.ts'

export interface InflightRequest {
  readonly signal: AbortSignal
  /** The request ended: a later cancel finds nothing. */
  done(): void
}

export class InflightRequests {
  private readonly running = new Map<string, AbortController>()

  /** Registers a request; a second request with the same id in the scope replaces the first. */
  start(scope: string, id: JsonRpcId): InflightRequest {
    const key = keyOf(scope, id)
    const controller = new AbortController()
    this.running.set(key, controller)
    return {
      signal: controller.signal,
      done: () => {
        if (this.running.get(key) === controller) this.running.delete(key)
      },
    }
  }

  /** Aborts the request `id` of `scope`; false when none runs here. */
  cancel(scope: string, id: JsonRpcId): boolean {
    const key = keyOf(scope, id)
    const controller = this.running.get(key)
    if (controller === undefined) return false
    this.running.delete(key)
    controller.abort(new Error('cancelled by the client'))
    return true
  }
}

function keyOf(scope: string, id: JsonRpcId): string {
  return `${scope}\u0000${typeof id}:${id}`
}
