/**
 * @module door
 * The one way a transport reaches a server: 2026-07-28 requests, the handshake era's sessions,
 * whole client connections (stdio), and shutdown. It is looked up from the server object through
 * a module-private map, so the public `McpServer` type shows only what applications use; and it
 * is the only module of `server/` a transport imports (the architecture tests check it). It
 * declares what it hands out as interfaces, so a transport depends on these shapes and never on
 * the classes of the server that implement them.
 */

import type { Logger } from '../observation/logger.ts'
import type { Observer } from '../observation/observer.ts'
import type {
  InboundMessage,
  JsonObject,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponseIn,
} from '../protocol/jsonrpc/message.ts'
import type { HeaderView } from '../protocol/modern/header-view.ts'
import type { Reply, ResponseReply } from '../reply.ts'
import type { AuthInfo } from '../security/request-state/binding.ts'
import type { Exchange } from './exchange.ts'
import type { EventStore } from './handshake/event-store.ts'
import type { McpServer } from './mcp-server.ts'
import type { Readiness } from './readiness.ts'

export type { EventStore, Exchange, McpServer, Readiness }

export interface ServerDoor {
  readonly logger: Logger
  /** Where a transport announces the steps it sees (the exchange, its route, an error it sends). */
  readonly observer: Observer
  /** The versions a 2026-07-28 request may name. */
  readonly modernVersions: readonly string[]
  /** Every version this server speaks, for the data of an unsupported-version error. */
  readonly supportedVersions: readonly string[]
  /** The 2025-11-25 era; undefined when the server serves 2026-07-28 only. */
  readonly handshake: HandshakeDoor | undefined
  /**
   * A transport starts serving: from now on every registration is announced to listeners, and the
   * first call warns about what this server keeps in this process only (an in-process test client
   * does not call it, so tests hear no such warning).
   */
  opened(): void
  /** Serves one 2026-07-28 request. */
  modern(request: JsonRpcRequest, exchange: Exchange): Promise<Reply>
  /** A client on a two-way message stream (stdio), in either era; `auth` when the transport knows who it is. */
  connect(write: MessageWriter, auth?: AuthInfo): ConnectionDoor
  /** Ends every listen and session stream of this process with its closing message. */
  endStreams(): void
  /**
   * Resolves once the events this instance published so far have left it (a bus that sends in the
   * background): a platform that cancels what a request leaves running waits for it.
   */
  published(): Promise<void>
  /** `McpServer.close()`: ends streams and closes the stores. */
  close(): Promise<void>
  /**
   * The options under which this server keeps, in this process's memory, what several instances
   * of it must share (empty when it keeps nothing of the kind).
   */
  processLocal(): string[]
  /** Whether the keys are loaded and every store and bus answers (the `/readyz` probe). */
  ready(): Promise<Readiness>
}

/** The 2025-11-25 era as a transport sees it: sessions opened and found, and their stream events. */
export interface HandshakeDoor {
  /** The log of resumable SSE streams (`Last-Event-ID`). */
  readonly events: EventStore
  /**
   * Opens a session for `initialize` and returns it with the initialize result. `local` keeps it
   * in this process only, for a transport that is itself one client's connection (stdio);
   * `headers` are the HTTP request's.
   */
  open(
    request: JsonRpcRequest,
    auth: AuthInfo | undefined,
    options?: { local?: boolean; headers?: HeaderView },
  ): Promise<{ session: SessionDoor; result: Record<string, unknown> }>
  /**
   * The session a request names: refused when the id is missing (400), unknown, ended or opened
   * by another principal (404), or when the request's version header is not a 2025-era version.
   */
  find(
    sessionId: string | undefined,
    auth: AuthInfo | undefined,
    versionHeader: string | undefined,
  ): Promise<SessionDoor>
}

/** One handshake-era session, for the messages of its client. */
export interface SessionDoor {
  readonly id: string
  /** Serves a request in the session; undefined when the request was cancelled before it answered. */
  request(request: JsonRpcRequest, exchange: Exchange): Promise<ResponseReply | undefined>
  /** Takes a notification of the client (`notifications/cancelled`, `initialized`, …). */
  notification(notification: JsonRpcNotification, auth: AuthInfo | undefined): Promise<void>
  /** Takes the client's answer to a request the server sent it, on whichever instance holds that request. */
  response(response: JsonRpcResponseIn, auth: AuthInfo | undefined): void
  /** Ends the session (DELETE, or the connection closed). */
  end(): Promise<void>
  /** Follows the notifications this session is owed (the GET stream); returns a function that stops. */
  follow(sink: SessionSink, auth: AuthInfo | undefined): () => void
}

/** Where a follower's notifications go. */
export interface SessionSink {
  send(message: JsonObject): void
  /** The session ended, or the server is shutting down: nothing more will come. */
  end(): void
}

/** One client on a two-way message stream, in either era. */
export interface ConnectionDoor {
  /** Takes one message from the client; the work it starts is awaited by `close`. */
  receive(inbound: InboundMessage): void
  /** The client is gone: subscriptions end now, requests in flight still answer. */
  close(): Promise<void>
}

/** Writes one message: a string is a message already serialized. */
export type MessageWriter = (message: JsonObject | string) => void

const doors = new WeakMap<object, ServerDoor>()

/** Called once by the server that owns `door`. */
export function registerDoor(server: object, door: ServerDoor): void {
  doors.set(server, door)
}

/** The door of a server made by `createServer`; a TypeError for anything else. */
export function doorOf(server: unknown, caller: string): ServerDoor {
  const door = typeof server === 'object' && server !== null ? doors.get(server) : undefined
  if (door === undefined) throw new TypeError(`${caller} needs a server made by createServer().`)
  return door
}
