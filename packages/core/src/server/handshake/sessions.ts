/**
 * @module sessions
 * The door of the 2025-11-25 era: `initialize` opens a session, and every later request names it.
 * A session is bound to the principal that opened it: another principal's request for it is
 * answered exactly like a request for an unknown session. Answers and cancels that reach an
 * instance not holding the request arrive here from the bus and are routed to the one waiting.
 */
import { handshakeJsonrpcCode, TesseraError } from '../../errors.ts'
import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc/message.ts'
import type { HeaderView } from '../../protocol/modern/header-view.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import type { HandshakeDoor } from '../door.ts'
import { InflightRequests } from '../inflight.ts'
import type { ServerParts } from '../methods/method-call.ts'
import type { EventStore } from './event-store.ts'
import { newSession } from './initialize.ts'
import { OutboundRequests } from './outbound.ts'
import { principalKey } from './principal.ts'
import { Session, type SessionServices } from './session.ts'
import { memorySessionStore, type SessionStore } from './session-store.ts'

/** Longest session id looked up; anything longer names no session. */
const MAX_SESSION_ID = 256

export interface HandshakeSettings {
  sessions: SessionStore
  events: EventStore
  requestTimeoutMs: number
}

export class HandshakeSessions implements HandshakeDoor {
  readonly events: EventStore
  readonly sessions: SessionStore
  readonly #services: SessionServices

  constructor(server: ServerParts, settings: HandshakeSettings) {
    this.sessions = settings.sessions
    this.events = settings.events
    this.#services = {
      server,
      outbound: new OutboundRequests(),
      inflight: new InflightRequests(),
      requestTimeoutMs: settings.requestTimeoutMs,
    }
    server.services.bus.subscribe((event) => {
      if (event.type === 'shutdown') this.#services.outbound.abandonAll()
      if (event.type === 'client-response')
        this.#services.outbound.deliver(event.sessionId, event.response, event.scopes)
      if (event.type === 'client-cancel')
        this.#services.inflight.cancel(event.sessionId, event.requestId, event.scopes)
    })
  }

  /**
   * Opens a session for `initialize` and returns it with the initialize result, watched as a
   * request of its own. `local` keeps it in this process only, for a transport that is itself one
   * client's connection (stdio); `headers` are the HTTP request's.
   */
  async open(
    request: JsonRpcRequest,
    auth: AuthInfo | undefined,
    options?: { local?: boolean; headers?: HeaderView },
  ): Promise<{ session: Session; result: Record<string, unknown> }> {
    const { observer } = this.#services.server.services
    const watch = observer.request({
      method: request.method,
      requestId: request.id,
      params: request.params as JsonObject | undefined,
      headers: options?.headers,
    })
    try {
      return await watch.run(() => this.#open(request, auth, options?.local === true))
    } catch (error) {
      if (error instanceof TesseraError) watch.failed(handshakeJsonrpcCode(error.code), error.message)
      throw error
    } finally {
      watch.end()
    }
  }

  async #open(
    request: JsonRpcRequest,
    auth: AuthInfo | undefined,
    local: boolean,
  ): Promise<{ session: Session; result: Record<string, unknown> }> {
    const principal = principalKey(auth)
    if (principal === undefined) {
      throw new TesseraError(
        'TESSERA_FORBIDDEN',
        'Forbidden: the caller has no subject, so no session can be bound to it.',
      )
    }
    const opened = newSession(this.#services.server.catalogue, request.params, principal)
    const store = local
      ? memorySessionStore({ maxSessions: 1, idleMs: Number.MAX_SAFE_INTEGER })
      : this.sessions
    if (!(await store.create(opened.session))) {
      throw new TesseraError('TESSERA_TOO_MANY_SESSIONS', 'Too many sessions; try again later.')
    }
    const { observer } = this.#services.server.services
    if (observer.wants('session'))
      observer.announce({ step: 'session', sessionId: opened.session.id, open: true })
    return { session: new Session(this.#services, store, opened.session, !local), result: opened.result }
  }

  /**
   * The session a request names: refused when the id is missing (400), unknown, ended or opened
   * by another principal (404), or when the request's version header is not a 2025-era version.
   */
  async find(
    sessionId: string | undefined,
    auth: AuthInfo | undefined,
    versionHeader: string | undefined,
  ): Promise<Session> {
    if (sessionId === undefined) {
      throw new TesseraError('TESSERA_SESSION_REQUIRED', 'Bad request: Mcp-Session-Id header is required.')
    }
    const record = sessionId.length > MAX_SESSION_ID ? undefined : await this.sessions.get(sessionId)
    const principal = principalKey(auth)
    if (record === undefined || principal === undefined || record.principal !== principal) {
      throw new TesseraError('TESSERA_SESSION_NOT_FOUND', 'Session not found.')
    }
    if (
      versionHeader !== undefined &&
      !this.#services.server.catalogue.versions.handshake.includes(versionHeader)
    ) {
      throw new TesseraError('TESSERA_INVALID_REQUEST', 'Bad request: unsupported MCP-Protocol-Version.')
    }
    return new Session(this.#services, this.sessions, record, true)
  }
}
