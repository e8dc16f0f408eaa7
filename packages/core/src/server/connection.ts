/**
 * @module connection
 * One client on one two-way message stream (stdio): every message it sends, in either era. A
 * request whose `_meta` claims 2026-07-28 is served statelessly; `initialize` opens the one
 * handshake session of this connection (kept in this process), and requests after it without
 * that claim run in the session. `notifications/cancelled` stops the request it names and ends
 * a listen subscription; closing the connection ends the subscriptions and waits for the rest.
 */
import { TesseraError } from '../errors.ts'
import type { InboundMessage, JsonRpcId, JsonRpcRequest } from '../protocol/jsonrpc/message.ts'
import { hasModernClaim } from '../protocol/modern/request-meta.ts'
import { encodeReply, failure, type Reply, toTesseraError } from '../reply.ts'
import { randomId } from '../security/random.ts'
import type { AuthInfo } from '../security/request-state/binding.ts'
import type { ConnectionDoor, MessageWriter, ServerDoor, SessionDoor } from './door.ts'
import type { Exchange } from './exchange.ts'
import { FlightExchange, InflightRequests } from './inflight.ts'

/**
 * The signal of a request the connection hands to its session, which cancels it with a signal of
 * its own and never reads this one: one for all, rather than an AbortController per request.
 */
const NEVER_ABORTED = new AbortController().signal

/** What a connection needs of its server: the same door a transport uses. */
export type ConnectionServer = Pick<ServerDoor, 'modern' | 'handshake' | 'logger' | 'modernVersions'>

export class MessageConnection implements ConnectionDoor {
  readonly #scope = `connection-${randomId(9)}`
  readonly #inflight = new InflightRequests()
  readonly #pending = new Set<Promise<void>>()
  /** Cancels each listen subscription still open. */
  readonly #streams = new Map<string, () => void>()
  #session: Promise<SessionDoor | undefined> = Promise.resolve(undefined)
  #unfollow: (() => void) | undefined
  readonly #server: ConnectionServer
  readonly #write: MessageWriter
  /** Who is on the other end, when the transport knows (stdio does not). */
  readonly #auth: AuthInfo | undefined

  constructor(server: ConnectionServer, write: MessageWriter, auth: AuthInfo | undefined = undefined) {
    this.#server = server
    this.#write = write
    this.#auth = auth
  }

  /** Takes one message from the client; the work it starts is awaited by `close`. */
  receive(inbound: InboundMessage): void {
    const task = this.#handle(inbound).catch((error: unknown) => {
      this.#server.logger.error({ event: 'connection_failed', err: error }, 'a message could not be handled')
    })
    this.#pending.add(task)
    void task.finally(() => this.#pending.delete(task))
  }

  /** The client is gone: subscriptions end now, requests in flight still answer. */
  async close(): Promise<void> {
    for (const cancel of [...this.#streams.values()]) cancel()
    this.#unfollow?.()
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending])
  }

  async #handle(inbound: InboundMessage): Promise<void> {
    if (inbound.kind === 'notification') {
      const { method, params } = inbound.message
      if (method === 'notifications/cancelled' && this.#cancelHere(params?.requestId)) return
      return (await this.#session)?.notification(inbound.message, this.#auth)
    }
    if (inbound.kind === 'response') return (await this.#session)?.response(inbound.message, this.#auth)
    const request = inbound.message
    if (hasModernClaim(request.params)) return this.#serveModern(request)
    // Set before any await: the lines after initialize must already find the session.
    if (request.method === 'initialize') return this.#initialize(request)
    const session = await this.#session
    if (session === undefined) {
      const error = new TesseraError('TESSERA_INVALID_ENVELOPE', 'Invalid params: _meta is required.')
      return this.#write(encodeReply(failure(request.id, error)))
    }
    return this.#serveInSession(session, request)
  }

  async #serveModern(request: JsonRpcRequest): Promise<void> {
    const flight = this.#inflight.start(this.#scope, request.id)
    let answered = false
    const exchange = new FlightExchange({ headers: undefined, auth: this.#auth }, flight, (message) => {
      if (!answered) this.#write(message)
    })
    let reply: Reply
    try {
      reply = await this.#server.modern(request, exchange)
    } catch (error) {
      flight.done()
      throw error
    }
    if (reply.kind === 'stream') return this.#openStream(reply, request.id, flight.signal)
    answered = true
    flight.done()
    if (reply.kind === 'response' && !flight.aborted) this.#write(encodeReply(reply))
  }

  #openStream(reply: Extract<Reply, { kind: 'stream' }>, id: JsonRpcId, signal: AbortSignal): void {
    const key = `${typeof id}:${id}`
    let ended = false
    const end = () => {
      ended = true
      this.#streams.delete(key)
    }
    this.#streams.set(key, () => this.#inflight.cancel(this.#scope, id, this.#auth?.scopes))
    signal.addEventListener('abort', end, { once: true })
    reply.open({
      send: (message) => {
        if (!ended) this.#write(message)
      },
      end: (final) => {
        if (ended) return
        end()
        if (final !== undefined) this.#write(final)
      },
      onClose: (callback) => signal.addEventListener('abort', callback, { once: true }),
    })
  }

  #initialize(request: JsonRpcRequest): Promise<void> {
    const sessions = this.#server.handshake
    if (sessions === undefined) {
      const error = new TesseraError(
        'TESSERA_UNSUPPORTED_VERSION',
        'Unsupported protocol version: this server speaks 2026-07-28 only.',
        { supported: this.#server.modernVersions, requested: String(request.params?.protocolVersion ?? '') },
      )
      this.#write(encodeReply(failure(request.id, error)))
      return Promise.resolve()
    }
    const previous = this.#session
    const opening = sessions.open(request, this.#auth, { local: true })
    this.#session = opening.then(
      (opened) => opened.session,
      () => previous,
    )
    return opening.then(
      ({ session, result }) => {
        this.#unfollow?.()
        this.#unfollow = session.follow(
          { send: (message) => this.#write(message), end: () => {} },
          this.#auth,
        )
        this.#write({ jsonrpc: '2.0', id: request.id, result })
      },
      (error: unknown) => {
        const fault = toTesseraError(error, (err) =>
          this.#server.logger.error({ event: 'initialize_failed', err }, 'initialize failed'),
        )
        this.#write(encodeReply(failure(request.id, fault, { inSession: true })))
      },
    )
  }

  async #serveInSession(session: SessionDoor, request: JsonRpcRequest): Promise<void> {
    let answered = false
    const exchange: Exchange = {
      headers: undefined,
      auth: this.#auth,
      signal: NEVER_ABORTED,
      send: (message) => {
        if (!answered) this.#write(message)
      },
    }
    const reply = await session.request(request, exchange)
    answered = true
    if (reply !== undefined) this.#write(encodeReply(reply))
  }

  /** Cancels a 2026-07-28 request or listen of this connection; false when none has that id. */
  #cancelHere(id: unknown): boolean {
    if (typeof id !== 'string' && typeof id !== 'number') return true
    return this.#inflight.cancel(this.#scope, id, this.#auth?.scopes)
  }
}
