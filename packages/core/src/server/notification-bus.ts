/**
 * @module notification-bus
 * Change events a server publishes (list changes, resource updates) and the listeners that carry
 * them to `subscriptions/listen` streams. The in-memory bus serves one process; a deployment with
 * several instances plugs in a shared implementation of the same interface.
 */

export type ServerEvent =
  | { type: 'tools/list_changed' }
  | { type: 'prompts/list_changed' }
  | { type: 'resources/list_changed' }
  | { type: 'resources/updated'; uri: string }
  | { type: 'shutdown' }
  | { type: 'session-ended'; sessionId: string }

export type ServerEventListener = (event: ServerEvent) => void

export interface NotificationBus {
  publish(event: ServerEvent): void
  subscribe(listener: ServerEventListener): () => void
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
