/**
 * @module subscriptions-listen
 * `subscriptions/listen`: the one long-lived request of 2026-07-28. The acknowledgement comes
 * first and names what the server will honour; every later notification carries the listen
 * request's id as `subscriptionId` (same JSON type). Progress and log messages never go here.
 */
import { SuccessStatus, TesseraError } from '../../errors.ts'
import type { JsonObject, JsonRpcId } from '../../protocol/jsonrpc/message.ts'
import { declaresExtension } from '../../protocol/modern/capabilities.ts'
import { MetaKey, TASKS_EXTENSION } from '../../protocol/modern/vocabulary.ts'
import type { Reply, StreamSink } from '../../reply.ts'
import { withFields } from '../../with-fields.ts'
import { permits, requireScopes } from '../authorization.ts'
import { readScopes } from '../catalogue.ts'
import { clipped, type MethodCall } from '../methods/method-call.ts'
import { requireTaskScopes } from '../methods/tasks.ts'
import type { ServerEvent } from '../notification-bus.ts'
import { detailedTask } from '../tasks/task-record.ts'

interface Filter {
  toolsListChanged?: true
  promptsListChanged?: true
  resourcesListChanged?: true
  resourceSubscriptions?: string[]
  taskIds?: string[]
}

/** Task ids one listen stream may follow. */
const MAX_TASK_IDS = 100
/** Resource URIs one listen stream may follow, and the longest URI (as `resources/read` allows). */
const MAX_RESOURCE_SUBSCRIPTIONS = 1000
const MAX_URI_LENGTH = 4096

export async function subscriptionsListen(call: MethodCall): Promise<Reply> {
  const requested = call.params.notifications
  if (typeof requested !== 'object' || requested === null || Array.isArray(requested)) {
    throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: notifications filter is required.')
  }
  const filter = honoured(call, requested as JsonObject)
  const taskIds = await ownTasks(call, (requested as JsonObject).taskIds)
  if (taskIds.length > 0) filter.taskIds = taskIds
  const id = call.request.id
  return {
    kind: 'stream',
    status: SuccessStatus.ok,
    open(sink) {
      sink.send(notification('notifications/subscriptions/acknowledged', id, { notifications: filter }))
      const unsubscribe = call.services.bus.subscribe((event) => {
        if (event.type === 'shutdown') {
          unsubscribe()
          sink.end(listenClosed(id))
          return
        }
        if (event.type === 'task-changed') {
          if (filter.taskIds?.includes(event.taskId)) void sendTask(call, sink, id, event)
          return
        }
        const method = deliver(call, filter, event)
        if (method === undefined) return
        sink.send(notification(method, id, event.type === 'resources/updated' ? { uri: event.uri } : {}))
      })
      const { observer } = call.services
      if (observer.wants('listen-stream'))
        observer.announce({ step: 'listen-stream', subscriptionId: id, stream: sink, open: true })
      sink.onClose(() => {
        unsubscribe()
        if (observer.wants('listen-stream'))
          observer.announce({ step: 'listen-stream', subscriptionId: id, stream: sink, open: false })
      })
    },
  }
}

/**
 * The requested task ids this stream may follow: those of the caller's own live tasks, when the
 * request declared the tasks extension. An id that is unknown or someone else's is left out of
 * the acknowledgement, exactly alike; an own task whose tool needs a scope the caller lacks is
 * refused as `tasks/get` would refuse it (403).
 */
async function ownTasks(call: MethodCall, requested: unknown): Promise<string[]> {
  if (!Array.isArray(requested) || call.catalogue.extensions.tools.usage(TASKS_EXTENSION) === 0) return []
  if (!declaresExtension(call.meta.clientCapabilities, TASKS_EXTENSION)) return []
  const wanted = [...new Set(requested.filter((v): v is string => typeof v === 'string'))].slice(
    0,
    MAX_TASK_IDS,
  )
  const own: string[] = []
  for (const taskId of wanted) {
    const found = await call.services.tasks.service
      .find(taskId, call.exchange.auth)
      .catch((error: unknown) => {
        if (error instanceof TesseraError && error.code === 'TESSERA_INVALID_PARAMS') return undefined
        throw error
      })
    if (found === undefined) continue
    requireTaskScopes(call.catalogue, found, call.exchange.auth)
    own.push(taskId)
  }
  return own
}

/** Sends the task of a change event: carried along, or read from the store when it was too large. */
async function sendTask(
  call: MethodCall,
  sink: StreamSink,
  id: JsonRpcId,
  event: { taskId: string; task?: JsonObject },
): Promise<void> {
  let task = event.task
  if (task === undefined) {
    const stored = await call.services.tasks.service
      .read(event.taskId, call.exchange.auth)
      .catch(() => undefined)
    if (stored === undefined) return
    task = detailedTask(stored)
  }
  sink.send(notification('notifications/tasks', id, task))
}

/** The subset of the requested filter this server will actually deliver. */
function honoured(call: MethodCall, requested: JsonObject): Filter {
  const caps = call.catalogue.capabilities('modern')
  const filter: Filter = {}
  if (requested.toolsListChanged === true && caps.tools?.listChanged) filter.toolsListChanged = true
  if (requested.promptsListChanged === true && caps.prompts?.listChanged) filter.promptsListChanged = true
  if (requested.resourcesListChanged === true && caps.resources?.listChanged)
    filter.resourcesListChanged = true
  const uris = requested.resourceSubscriptions
  if (Array.isArray(uris) && caps.resources?.subscribe) {
    const followed = followable(call, uris)
    if (followed.length > 0) filter.resourceSubscriptions = followed
  }
  return filter
}

/**
 * The requested URIs this stream follows: each must name a registered resource (or match a
 * template), so a bare prefix follows nothing, and subscribing needs what reading needs (403
 * otherwise, as `resources/read` answers). Unknown URIs are left out of the acknowledgement.
 */
function followable(call: MethodCall, uris: unknown[]): string[] {
  const followed = new Set<string>()
  for (const uri of uris.slice(0, MAX_RESOURCE_SUBSCRIPTIONS)) {
    if (typeof uri !== 'string' || uri === '' || uri.length > MAX_URI_LENGTH) continue
    const scopes = readScopes(call.catalogue, uri)
    if (scopes === undefined) continue
    requireScopes(scopes, call.exchange.auth, `Resource '${clipped(uri)}'`)
    followed.add(uri)
  }
  return [...followed]
}

/**
 * Whether an update of `uri` reaches this stream: it is a followed resource or one below it (an
 * update may name a sub-resource), and the caller may read it, judged by what `uri` itself needs.
 */
function follows(call: MethodCall, filter: Filter, uri: string): boolean {
  const followed = filter.resourceSubscriptions
  if (followed === undefined || !followed.some((u) => uri === u || uri.startsWith(`${u}/`))) return false
  return permits(readScopes(call.catalogue, uri) ?? [], call.exchange.auth)
}

function deliver(call: MethodCall, filter: Filter, event: ServerEvent): string | undefined {
  switch (event.type) {
    case 'tools/list_changed':
      return filter.toolsListChanged ? 'notifications/tools/list_changed' : undefined
    case 'prompts/list_changed':
      return filter.promptsListChanged ? 'notifications/prompts/list_changed' : undefined
    case 'resources/list_changed':
      return filter.resourcesListChanged ? 'notifications/resources/list_changed' : undefined
    case 'resources/updated':
      return follows(call, filter, event.uri) ? 'notifications/resources/updated' : undefined
    default:
      return undefined
  }
}

function notification(method: string, id: JsonRpcId, params: JsonObject): JsonObject {
  const meta = params._meta as JsonObject | undefined
  return {
    jsonrpc: '2.0',
    method,
    params: withFields(params, { _meta: withFields(meta, { [MetaKey.subscriptionId]: id }) }),
  }
}

/** The result that ends a subscription when the server shuts down. */
export function listenClosed(id: JsonRpcId): JsonObject {
  return { jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { [MetaKey.subscriptionId]: id } } }
}
