/**
 * @module notification-bus
 * Events a server publishes (list changes, resource updates, handshake-era session traffic) and
 * the listeners that carry them to streams. The in-memory bus serves one process; a deployment
 * with several instances plugs in a shared implementation of the same interface (Redis pub/sub in
 * `@tessera/store-redis`), so a session's answer, cancel or end reaches the instance holding it.
 */
import type { JsonRpcId, JsonRpcResponseIn } from '../protocol/jsonrpc/message.ts'

export type ServerEvent =
  | { type: 'tools/list_changed' }
  | { type: 'prompts/list_changed' }
  | { type: 'resources/list_changed' }
  | { type: 'resources/updated'; uri: string }
  /** This process is shutting down: never leaves it. */
  | { type: 'shutdown' }
  | { type: 'session-ended'; sessionId: string }
  /** A client's answer to a server request that reached an instance not waiting for it. */
  | { type: 'client-response'; sessionId: string; response: JsonRpcResponseIn }
  /** A client's notifications/cancelled that reached an instance not running the request. */
  | { type: 'client-cancel'; sessionId: string; requestId: JsonRpcId }

/** Events that concern only the process that raised them. */
export function isLocalEvent(event: ServerEvent): boolean {
  return event.type === 'shutdown'
}

export type ServerEventListener = (event: ServerEvent) => void

export interface NotificationBus {
  publish(event: ServerEvent): void
  subscribe(listener: ServerEventListener): () => void
  /** Releases connections; called by `McpServer.close()`. */
  close?(): Promise<void>
}

export function createMemoryBus(): NotificationBus {
  const listeners = new Set<ServerEventListener>()
  return {
    publish(event) {
      for (const listener of listeners) listener(event)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
