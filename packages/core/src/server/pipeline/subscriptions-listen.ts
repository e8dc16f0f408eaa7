/**
 * @module subscriptions-listen
 * `subscriptions/listen`: the one long-lived request of 2026-07-28. The acknowledgement comes
 * first and names what the server will honour; every later notification carries the listen
 * request's id as `subscriptionId` (same JSON type). Progress and log messages never go here.
 */
import { SuccessStatus, TesseraError } from '../../errors.ts'
import type { JsonObject, JsonRpcId } from '../../protocol/jsonrpc/message.ts'
import { MetaKey } from '../../protocol/modern/vocabulary.ts'
import type { MethodCall } from '../methods/method-call.ts'
import type { ServerEvent } from '../notification-bus.ts'
import type { ServerCore } from '../server-core.ts'
import type { Reply } from './reply.ts'

interface Filter {
  toolsListChanged?: true
  promptsListChanged?: true
  resourcesListChanged?: true
  resourceSubscriptions?: string[]
}

export function subscriptionsListen(call: MethodCall): Reply {
  const requested = call.params.notifications
  if (typeof requested !== 'object' || requested === null || Array.isArray(requested)) {
    throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: notifications filter is required.')
  }
  const filter = honoured(call.core, requested as JsonObject)
  const id = call.request.id
  return {
    kind: 'stream',
    status: SuccessStatus.ok,
    open(sink) {
      sink.send(notification('notifications/subscriptions/acknowledged', id, { notifications: filter }))
      const unsubscribe = call.core.bus.subscribe((event) => {
        if (event.type === 'shutdown') {
          unsubscribe()
          sink.end(listenClosed(id))
          return
        }
        const method = deliver(filter, event)
        if (method === undefined) return
        sink.send(notification(method, id, event.type === 'resources/updated' ? { uri: event.uri } : {}))
      })
      sink.onClose(unsubscribe)
    },
  }
}

/** The subset of the requested filter this server will actually deliver. */
function honoured(core: ServerCore, requested: JsonObject): Filter {
  const caps = core.capabilities()
  const filter: Filter = {}
  if (requested.toolsListChanged === true && caps.tools?.listChanged) filter.toolsListChanged = true
  if (requested.promptsListChanged === true && caps.prompts?.listChanged) filter.promptsListChanged = true
  if (requested.resourcesListChanged === true && caps.resources?.listChanged)
    filter.resourcesListChanged = true
  const uris = requested.resourceSubscriptions
  if (Array.isArray(uris) && caps.resources?.subscribe) {
    const valid = uris.filter((u): u is string => typeof u === 'string').slice(0, 1000)
    if (valid.length > 0) filter.resourceSubscriptions = valid
  }
  return filter
}

function deliver(filter: Filter, event: ServerEvent): string | undefined {
  switch (event.type) {
    case 'tools/list_changed':
      return filter.toolsListChanged ? 'notifications/tools/list_changed' : undefined
    case 'prompts/list_changed':
      return filter.promptsListChanged ? 'notifications/prompts/list_changed' : undefined
    case 'resources/list_changed':
      return filter.resourcesListChanged ? 'notifications/resources/list_changed' : undefined
    case 'resources/updated':
      return filter.resourceSubscriptions?.some((uri) => event.uri === uri || event.uri.startsWith(`${uri}/`))
        ? 'notifications/resources/updated'
        : undefined
    default:
      return undefined
  }
}

function notification(method: string, id: JsonRpcId, params: JsonObject): JsonObject {
  return { jsonrpc: '2.0', method, params: { ...params, _meta: { [MetaKey.subscriptionId]: id } } }
}

/** The result that ends a subscription when the server shuts down. */
export function listenClosed(id: JsonRpcId): JsonObject {
  return { jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { [MetaKey.subscriptionId]: id } } }
}
