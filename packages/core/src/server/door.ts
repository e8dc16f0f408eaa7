/**
 * @module door
 * The one way a transport reaches a server: 2026-07-28 requests, the handshake era's sessions,
 * whole client connections (stdio), and shutdown. It is looked up from the server object through
 * a module-private map, so the public `McpServer` type shows only what applications use; and it
 * is the only module of `server/` a transport imports (the architecture tests check it), so
 * everything a transport may touch is listed below.
 */
import type { JsonRpcRequest } from '../protocol/jsonrpc/message.ts'
import type { AuthInfo } from '../security/request-state/binding.ts'
import type { MessageConnection, MessageWriter } from './connection.ts'
import type { Exchange } from './exchange.ts'
import type { HandshakeSessions } from './handshake/sessions.ts'
import type { Logger } from './logger.ts'
import type { Reply } from './pipeline/reply.ts'
import type { Readiness } from './readiness.ts'

export interface ServerDoor {
  readonly logger: Logger
  /** The versions a 2026-07-28 request may name. */
  readonly modernVersions: readonly string[]
  /** Every version this server speaks, for the data of an unsupported-version error. */
  readonly supportedVersions: readonly string[]
  /** The 2025-11-25 era; undefined when the server serves 2026-07-28 only. */
  readonly handshake: HandshakeSessions | undefined
  /**
   * A transport starts serving: from now on every registration is announced to listeners, and the
   * first call warns about what this server keeps in this process only (an in-process test client
   * does not call it, so tests hear no such warning).
   */
  opened(): void
  /** Serves one 2026-07-28 request. */
  modern(request: JsonRpcRequest, exchange: Exchange): Promise<Reply>
  /** A client on a two-way message stream (stdio), in either era; `auth` when the transport knows who it is. */
  connect(write: MessageWriter, auth?: AuthInfo): MessageConnection
  /** Ends every listen and session stream of this process with its closing message. */
  endStreams(): void
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

export { relayClusterBus } from './cluster-bus.ts'
export type { MessageConnection, MessageWriter } from './connection.ts'
export type { McpServer } from './create-server.ts'
export {
  currentDevRequest,
  DEV_CHANNEL,
  type DevEvent,
  type DevRequest,
  devTapOn,
  publishDev,
  tapRequest,
} from './dev-tap.ts'
export type { Exchange } from './exchange.ts'
export {
  type EventStore,
  formatEventId,
  parseEventId,
  type StoredEvent,
} from './handshake/event-store.ts'
export { INPUT_KEY_META } from './handshake/serve-handshake.ts'
export type { Session, SessionSink } from './handshake/session.ts'
export type { HandshakeSessions } from './handshake/sessions.ts'
export { defaultLogger, type Logger } from './logger.ts'
export {
  encodeReply,
  failure,
  type Reply,
  type ResponseReply,
  type StreamSink,
  toTesseraError,
} from './pipeline/reply.ts'
export type { Readiness } from './readiness.ts'
export type { CallToolResult, GetPromptResult, ReadResourceResult } from './types.ts'
