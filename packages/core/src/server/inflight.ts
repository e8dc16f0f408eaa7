/**
 * @module inflight
 * Requests running in this process, by scope (a handshake session, or one stdio connection) and
 * JSON-RPC id, so that `notifications/cancelled` can stop the one it names, when sent by a token
 * holding the scopes of what that request calls. An id is typed: 7 and "7" are different requests.
 */
import type { JsonObject, JsonRpcId } from '../protocol/jsonrpc/message.ts'
import type { Exchange } from './exchange.ts'

export interface InflightRequest {
  /** Aborts when the request is cancelled; made on first read. */
  readonly signal: AbortSignal
  /** Whether the request was cancelled, without making its signal. */
  readonly aborted: boolean
  /** The request ended: a later cancel finds nothing. */
  done(): void
}

const NO_SCOPES: readonly string[] = Object.freeze([])

export class InflightRequests {
  readonly #running = new Map<string, Flight>()

  /**
   * Registers a request whose target needs `scopes`; a second request with the same id in the
   * scope replaces the first.
   */
  start(scope: string, id: JsonRpcId, scopes: readonly string[] = NO_SCOPES): InflightRequest {
    const flight = new Flight(this.#running, keyOf(scope, id), scopes)
    this.#running.set(flight.key, flight)
    return flight
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
    entry.abort(new Error('cancelled by the client'))
    return true
  }
}

/**
 * One running request. Its AbortController is made only when its signal is read: most requests
 * are never cancelled and never read it, and on Node 20 every AbortSignal has a hidden class of
 * its own, so each one made per request outlived the young generation.
 */
class Flight implements InflightRequest {
  readonly #running: Map<string, Flight>
  #controller: AbortController | undefined
  #reason: unknown
  #aborted = false

  constructor(
    running: Map<string, Flight>,
    readonly key: string,
    /** What a canceller must hold: the scopes of the request's target. */
    readonly scopes: readonly string[],
  ) {
    this.#running = running
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController()
      if (this.#aborted) this.#controller.abort(this.#reason)
    }
    return this.#controller.signal
  }

  get aborted(): boolean {
    return this.#aborted
  }

  abort(reason: unknown): void {
    if (this.#aborted) return
    this.#aborted = true
    this.#reason = reason
    this.#controller?.abort(reason)
  }

  done(): void {
    if (this.#running.get(this.key) === this) this.#running.delete(this.key)
  }
}

function keyOf(scope: string, id: JsonRpcId): string {
  return `${scope}\u0000${typeof id}:${id}`
}

/**
 * The exchange of a running request whose cancellation is its signal (a handshake session's, a
 * stdio connection's): the signal is made only when read, and nothing is sent once the request
 * was cancelled. A class, so that its getter gives no request a hidden class of its own.
 */
export class FlightExchange implements Exchange {
  readonly headers: Exchange['headers']
  readonly auth: Exchange['auth']
  readonly client: Exchange['client']
  readonly closeStream: Exchange['closeStream']
  readonly #flight: InflightRequest
  readonly #deliver: (message: JsonObject) => void

  constructor(
    parts: Pick<Exchange, 'headers' | 'auth' | 'client' | 'closeStream'>,
    flight: InflightRequest,
    deliver: (message: JsonObject) => void,
  ) {
    this.headers = parts.headers
    this.auth = parts.auth
    this.client = parts.client
    this.closeStream = parts.closeStream
    this.#flight = flight
    this.#deliver = deliver
  }

  get signal(): AbortSignal {
    return this.#flight.signal
  }

  send(message: JsonObject): void {
    if (!this.#flight.aborted) this.#deliver(message)
  }
}
