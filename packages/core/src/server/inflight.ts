/**
 * @module inflight
 * Requests running in this process, by scope (a handshake session, or one stdio connection) and
 * JSON-RPC id, so that `notifications/cancelled` can stop the one it names, when sent by a token
 * holding the scopes of what that request calls. An id is typed: 7 and "7" are different requests.
 */
import type { JsonRpcId } from '../protocol/jsonrpc/message.ts'

export interface InflightRequest {
  readonly signal: AbortSignal
  /** The request ended: a later cancel finds nothing. */
  done(): void
}

interface Running {
  controller: AbortController
  /** What a canceller must hold: the scopes of the request's target. */
  scopes: readonly string[]
}

const NO_SCOPES: readonly string[] = Object.freeze([])

export class InflightRequests {
  readonly #running = new Map<string, Running>()

  /**
   * Registers a request whose target needs `scopes`; a second request with the same id in the
   * scope replaces the first.
   */
  start(scope: string, id: JsonRpcId, scopes: readonly string[] = NO_SCOPES): InflightRequest {
    const key = keyOf(scope, id)
    const entry = { controller: new AbortController(), scopes }
    this.#running.set(key, entry)
    return {
      signal: entry.controller.signal,
      done: () => {
        if (this.#running.get(key) === entry) this.#running.delete(key)
      },
    }
  }

  /**
   * Aborts the request `id` of `scope` for a canceller holding `granted`; false when none runs
   * here. A canceller without every scope of the request's target changes nothing (the request
   * still counts as found, so the cancel goes no further).
   */
  cancel(scope: string, id: JsonRpcId, granted: readonly string[] | undefined): boolean {
    const key = keyOf(scope, id)
    const entry = this.#running.get(key)
    if (entry === undefined) return false
    if (!entry.scopes.every((s) => granted?.includes(s))) return true
    this.#running.delete(key)
    entry.controller.abort(new Error('cancelled by the client'))
    return true
  }
}

function keyOf(scope: string, id: JsonRpcId): string {
  return `${scope}\u0000${typeof id}:${id}`
}
