/**
 * @module session-notifications
 * What a handshake-era session is told about a server event: list changes the server advertises,
 * and updates of resources the session subscribed to (read from the store, since any instance may
 * have changed the subscriptions) that the stream's token may read. HTTP writes it on the GET stream; stdio on stdout.
 */
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import { permits } from '../authorization.ts'
import { type Catalogue, readScopes } from '../catalogue.ts'
import type { ServerEvent } from '../notification-bus.ts'
import type { SessionStore } from './session-store.ts'

export async function sessionNotificationFor(
  catalogue: Pick<Catalogue, 'capabilities' | 'resources'>,
  sessions: SessionStore,
  sessionId: string,
  event: ServerEvent,
  auth: AuthInfo | undefined,
): Promise<JsonObject | undefined> {
  const caps = catalogue.capabilities('handshake')
  switch (event.type) {
    case 'tools/list_changed':
      return caps.tools?.listChanged ? notification('notifications/tools/list_changed', {}) : undefined
    case 'prompts/list_changed':
      return caps.prompts?.listChanged ? notification('notifications/prompts/list_changed', {}) : undefined
    case 'resources/list_changed':
      return caps.resources?.listChanged
        ? notification('notifications/resources/list_changed', {})
        : undefined
    case 'resources/updated': {
      // Subscribing was checked against the subscriber's token; the stream may be another's.
      if (!permits(readScopes(catalogue, event.uri) ?? [], auth)) return undefined
      const session = await sessions.get(sessionId)
      return session?.subscriptions.includes(event.uri)
        ? notification('notifications/resources/updated', { uri: event.uri })
        : undefined
    }
    default:
      return undefined
  }
}

function notification(method: string, params: JsonObject): JsonObject {
  return { jsonrpc: '2.0', method, params }
}
