/**
 * @module session
 * One live 2025-11-25 session as a transport sees it: serve a request in it, take a notification
 * or a response the client sent, end it, or follow the notifications it is owed. Cancellation, the
 * routing of answers and cancels to whichever instance holds the request, and the mapping of
 * server events to session notifications are done here, once, for HTTP and stdio alike.
 */

import type {
  JsonObject,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponseIn,
} from '../../protocol/jsonrpc/message.ts'
import type { ResponseReply } from '../../reply.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import { targetScopes } from '../catalogue.ts'
import type { SessionDoor, SessionSink } from '../door.ts'
import type { Exchange } from '../exchange.ts'
import type { InflightRequests } from '../inflight.ts'
import { FlightExchange } from '../inflight.ts'
import type { ServerParts } from '../methods/method-call.ts'
import type { OutboundRequests } from './outbound.ts'
import { type SessionContext, serveHandshake } from './serve-handshake.ts'
import { sessionNotificationFor } from './session-notifications.ts'
import type { SessionChange, SessionRecord, SessionStore } from './session-store.ts'

/** What every session of one server shares. */
export interface SessionServices {
  readonly server: ServerParts
  readonly outbound: OutboundRequests
  readonly inflight: InflightRequests
  /** How long a request to the client waits for its answer. */
  readonly requestTimeoutMs: number
}

export class Session implements SessionContext, SessionDoor {
  #record: SessionRecord
  /** The scopes of each running request's target, by the exchange its handler asks through. */
  readonly #targetScopes = new WeakMap<Exchange, readonly string[]>()

  readonly #services: SessionServices
  readonly #store: SessionStore
  /** Whether other instances may hold this session's requests (HTTP), or only this one (stdio). */
  readonly #shared: boolean

  constructor(services: SessionServices, store: SessionStore, record: SessionRecord, shared: boolean) {
    this.#services = services
    this.#store = store
    this.#record = record
    this.#shared = shared
  }

  get id(): string {
    return this.#record.id
  }

  get record(): SessionRecord {
    return this.#record
  }

  /**
   * Serves one request of this session. `notifications/cancelled` aborts it; then it resolves
   * undefined and nothing more may be sent for it.
   */
  async request(request: JsonRpcRequest, exchange: Exchange): Promise<ResponseReply | undefined> {
    // Another token of this session may cancel or answer for this request only with these.
    const scopes = targetScopes(this.#services.server.catalogue, request.method, request.params)
    const flight = this.#services.inflight.start(this.id, request.id, scopes)
    // In this era a disconnect is not a cancellation: the signal is the session's own.
    const scoped = new FlightExchange(
      {
        headers: exchange.headers,
        auth: exchange.auth,
        client: exchange.client,
        closeStream: exchange.closeStream && (() => exchange.closeStream?.()),
      },
      flight,
      (message) => exchange.send(message),
    )
    this.#targetScopes.set(scoped, scopes)
    try {
      const reply = await serveHandshake(this.#services.server, request, this, scoped)
      return flight.aborted ? undefined : reply
    } finally {
      flight.done()
    }
  }

  /** A notification the client sent in this session, with the token `auth`. */
  async notification(notification: JsonRpcNotification, auth: AuthInfo | undefined): Promise<void> {
    if (notification.method === 'notifications/initialized' && !this.#record.initialized) {
      await this.apply({ kind: 'initialized' })
    }
    if (notification.method === 'notifications/cancelled') {
      const id = notification.params?.requestId
      if (typeof id === 'string' || typeof id === 'number') this.cancel(id, auth)
    }
  }

  /**
   * Cancels request `id` of this session, wherever it runs, for a token `auth` holding the scopes
   * of what that request calls (a weaker token of the same principal stops nothing).
   */
  cancel(id: JsonRpcId, auth: AuthInfo | undefined): void {
    const scopes = grantedOf(auth)
    if (this.#services.inflight.cancel(this.id, id, scopes) || !this.#shared) return
    this.#services.server.services.bus.publish({
      type: 'client-cancel',
      sessionId: this.id,
      requestId: id,
      scopes,
    })
  }

  /**
   * The client's answer, sent with the token `auth`, to a request the server sent; the question
   * may wait on another instance. It counts only from a token holding the scopes of the call
   * that asked.
   */
  response(response: JsonRpcResponseIn, auth: AuthInfo | undefined): void {
    const scopes = grantedOf(auth)
    if (this.#services.outbound.deliver(this.id, response, scopes) || !this.#shared) return
    this.#services.server.services.bus.publish({
      type: 'client-response',
      sessionId: this.id,
      response,
      scopes,
    })
  }

  /** Ends the session (HTTP DELETE): its streams close on every instance. */
  async end(): Promise<void> {
    await this.#store.delete(this.id)
    const { observer, bus } = this.#services.server.services
    if (observer.wants('session')) observer.announce({ step: 'session', sessionId: this.id, open: false })
    bus.publish({ type: 'session-ended', sessionId: this.id })
  }

  /**
   * Delivers the notifications this session is owed (list changes, subscribed updates) until it
   * ends, to a stream opened by `auth`: an update reaches it only when `auth` may read the resource.
   */
  follow(sink: SessionSink, auth: AuthInfo | undefined): () => void {
    const { catalogue, services } = this.#services.server
    const unsubscribe = services.bus.subscribe((event) => {
      if (event.type === 'shutdown' || (event.type === 'session-ended' && event.sessionId === this.id)) {
        unsubscribe()
        sink.end()
        return
      }
      // Subscriptions are read from the store: any instance may have changed them.
      void sessionNotificationFor(catalogue, this.#store, this.id, event, auth).then(
        (message) => {
          if (message) sink.send(message)
        },
        (error: unknown) =>
          services.logger.warn(
            { event: 'session_notification_failed', err: error },
            'session notification lost',
          ),
      )
    })
    return unsubscribe
  }

  async apply(change: SessionChange): Promise<void> {
    const updated = await this.#store.apply(this.id, change)
    if (updated !== undefined) this.#record = updated
  }

  askClient(method: string, params: JsonObject | undefined, exchange: Exchange): Promise<JsonObject> {
    return this.#services.outbound.send(this.id, (message) => exchange.send(message), method, params, {
      timeoutMs: this.#services.requestTimeoutMs,
      signal: exchange.signal,
      scopes: this.#targetScopes.get(exchange) ?? [],
    })
  }
}

/** The scopes a token holds, as the bus carries them to another instance. */
function grantedOf(auth: AuthInfo | undefined): string[] {
  return auth?.scopes === undefined ? [] : [...auth.scopes]
}
