/**
 * @module notification-bus
 * Events a server publishes (list changes, resource updates, handshake-era session traffic) and
 * the bus that carries them to streams. The in-memory bus serves one process; a deployment with
 * several instances plugs in a shared bus (node:cluster IPC, Redis pub/sub, PostgreSQL
 * LISTEN/NOTIFY), so a session's answer, cancel or end reaches the instance holding it.
 *
 * Every bus that crosses processes is built on `createBusRelay`: one wire message (origin, a
 * sequence number, the event), one validation of what arrives, one echo filter, and delivery that
 * a throwing listener cannot break. Each bus only moves the text.
 */
import { assertKnownOptions, type OptionNames } from '../option-checks.ts'
import type { JsonObject, JsonRpcId, JsonRpcResponseIn } from '../protocol/jsonrpc/message.ts'
import { randomId } from '../security/random.ts'

/**
 * What travels on a server's `NotificationBus`, told apart by `type`: list changes and resource
 * updates for the streams that follow them, and the session and task traffic that must reach the
 * instance holding a request. Every event but `shutdown` may cross to the other instances.
 */
export type ServerEvent =
  | { type: 'tools/list_changed' }
  | { type: 'prompts/list_changed' }
  | { type: 'resources/list_changed' }
  | { type: 'resources/updated'; uri: string }
  /** This process is shutting down: never leaves it. */
  | { type: 'shutdown' }
  | { type: 'session-ended'; sessionId: string }
  /**
   * A client's answer to a server request that reached an instance not waiting for it, with the
   * scopes of the token that sent it.
   */
  | { type: 'client-response'; sessionId: string; response: JsonRpcResponseIn; scopes: string[] }
  /** A client's notifications/cancelled that reached an instance not running the request. */
  | { type: 'client-cancel'; sessionId: string; requestId: JsonRpcId; scopes: string[] }
  /**
   * A task changed, for the listen streams of its owner that follow it: its detailed wire shape
   * when small (a large one is read from the task store by the instance that delivers it).
   */
  | { type: 'task-changed'; taskId: string; owner: string; task?: JsonObject }
  /** tasks/cancel for a running task: the instance running it aborts the handler. */
  | { type: 'task-cancel'; taskId: string }

/** Events that concern only the process that raised them. */
export function isLocalEvent(event: ServerEvent): boolean {
  return event.type === 'shutdown'
}

/** Receives each event a bus delivers; one that throws does not stop delivery to the others. */
export type ServerEventListener = (event: ServerEvent) => void

/**
 * The port that carries `ServerEvent`s to the streams of a server and, when shared, to its other
 * instances (node:cluster IPC, Redis pub/sub, PostgreSQL LISTEN/NOTIFY): the `bus` of `Stores`.
 * A bus that crosses processes is built on `createBusRelay`.
 */
export interface NotificationBus {
  /** Delivers to this process's listeners at once, and to the other instances when shared. */
  publish(event: ServerEvent): void
  /** Returns the function that unsubscribes. */
  subscribe(listener: ServerEventListener): () => void
  /** Releases connections; called by `McpServer.close()`. */
  close(): Promise<void>
  /**
   * For a bus that sends in the background: resolves once every event published so far has left
   * this instance. A Worker's request is kept alive until then (the platform cancels what a
   * request leaves running once it answered); a bus that sends at once has no need of it.
   */
  settled?(): Promise<void>
}

/** The bus of one process. */
export function memoryNotificationBus(): NotificationBus {
  const relay = createBusRelay({})
  return { publish: relay.publish, subscribe: relay.subscribe, close: async () => {} }
}

/** What `createBusRelay` is given: how to send an encoded event to the other instances, and where errors go. */
export interface BusRelayOptions {
  /**
   * Hands one encoded event to the other instances; absent for a bus of one process. `seq` is the
   * number the payload carries: each call's is higher than the last one's.
   */
  send?(payload: string, seq: number): void
  /** A listener threw, or a payload could not be read; delivery goes on. */
  onError?(error: Error): void
}

/** The shared half of every bus: `receive` takes what another instance sent. */
export interface BusRelay {
  /** Delivers to this process's listeners at once and, unless the event is local, hands it to `send`. */
  publish(event: ServerEvent): void
  /** Returns the function that unsubscribes. */
  subscribe(listener: ServerEventListener): () => void
  /**
   * Delivers what another instance sent; a payload that cannot be read is dropped and reported to
   * `onError`, and this relay's own messages coming back are dropped.
   */
  receive(payload: string): void
}

interface BusMessage {
  /** The sending bus: its own messages coming back are dropped. */
  origin: string
  /** Per-bus sequence, so two identical events are never merged by a transport that dedupes. */
  seq: number
  event: ServerEvent
}

const BUS_RELAY_OPTION_NAMES = { send: true, onError: true } as const satisfies OptionNames<BusRelayOptions>

/**
 * The shared half of every bus that crosses processes: one wire message (origin, a sequence
 * number, the event), one check of what arrives, one echo filter, and delivery a throwing
 * listener cannot break. A bus moves the text: it sends what reaches `send`, and passes what it
 * receives to `receive`.
 */
export function createBusRelay(options: BusRelayOptions): BusRelay {
  assertKnownOptions(options, BUS_RELAY_OPTION_NAMES, 'createBusRelay', { required: true })
  // Drawn on the first send, not here: a bus made at a Worker's module scope may not draw random
  // values there. Until this instance sends, nothing that arrives can be its own echo.
  let origin: string | undefined
  const listeners = new Set<ServerEventListener>()
  let seq = 0
  const report = (error: unknown) => {
    try {
      options.onError?.(error instanceof Error ? error : new Error(String(error)))
    } catch {
      // A failing error handler must not break delivery.
    }
  }
  const deliver = (event: ServerEvent) => {
    for (const listener of [...listeners]) {
      try {
        listener(event)
      } catch (error) {
        report(error)
      }
    }
  }
  return {
    publish(event) {
      deliver(event)
      if (options.send === undefined || isLocalEvent(event)) return
      origin ??= randomId(9)
      const message: BusMessage = { origin, seq: seq++, event }
      options.send(JSON.stringify(message), message.seq)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    receive(payload) {
      const message = decodeBusMessage(payload)
      if (message === undefined) return report(new Error('notification bus: unreadable message dropped'))
      if (origin === undefined || message.origin !== origin) deliver(message.event)
    },
  }
}

function decodeBusMessage(payload: string): BusMessage | undefined {
  let value: unknown
  try {
    value = JSON.parse(payload)
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  const message = value as Partial<BusMessage>
  if (typeof message.origin !== 'string' || !Number.isSafeInteger(message.seq)) return undefined
  return isSharedEvent(message.event) ? (message as BusMessage) : undefined
}

/** What may arrive from another instance: a known event with well-typed fields, never a local one. */
function isSharedEvent(value: unknown): value is ServerEvent {
  if (typeof value !== 'object' || value === null) return false
  const event = value as Record<string, unknown>
  switch (event.type) {
    case 'tools/list_changed':
    case 'prompts/list_changed':
    case 'resources/list_changed':
      return true
    case 'resources/updated':
      return typeof event.uri === 'string'
    case 'session-ended':
      return typeof event.sessionId === 'string'
    case 'client-cancel':
      return typeof event.sessionId === 'string' && isId(event.requestId) && isScopes(event.scopes)
    case 'task-changed':
      return (
        typeof event.taskId === 'string' &&
        typeof event.owner === 'string' &&
        (event.task === undefined ||
          (typeof event.task === 'object' && event.task !== null && !Array.isArray(event.task)))
      )
    case 'task-cancel':
      return typeof event.taskId === 'string'
    case 'client-response': {
      const response = event.response as Record<string, unknown> | null | undefined
      return (
        typeof event.sessionId === 'string' &&
        typeof response === 'object' &&
        isId(response?.id) &&
        isScopes(event.scopes)
      )
    }
    default:
      return false
  }
}

function isScopes(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((scope) => typeof scope === 'string')
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value))
}
