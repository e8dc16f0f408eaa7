/**
 * @module follow-task
 * What the client does with a `CreateTaskResult`: polls `tasks/get` at the interval the server
 * gives (kept between 100 ms and 5 s), shows its status message and progress, answers the
 * questions a task waits on through `tasks/update`, and ends with the task's result (completed),
 * its JSON-RPC error (failed) or a cancellation. Interrupting the wait cancels the task.
 */
import { wireMappings } from '@tessera/core/protocol'
import { isObject, type JsonObject, RpcError, TransportError } from './json-rpc.ts'
import type { RequestHandlers } from './session.ts'

/** Sends one 2026-07-28 request and resolves with its result. */
export type Send = (method: string, params: JsonObject) => Promise<JsonObject>

const PROGRESS_META = 'dev.tessera/progress'
/** Status checks one task may take before the client gives up waiting on it. */
const MAX_POLLS = 100_000

export async function followTask(
  send: Send,
  created: JsonObject,
  handlers: RequestHandlers,
  signal?: AbortSignal,
): Promise<JsonObject> {
  const taskId = String(created.taskId)
  const interval = Math.min(5000, Math.max(100, Number(created.pollIntervalMs) || 1000))
  const answered = new Set<string>()
  let lastMessage: string | undefined
  for (let polls = 0; polls < MAX_POLLS; polls++) {
    if (signal?.aborted) {
      await send('tasks/cancel', { taskId }).catch(() => undefined)
      throw new TransportError(`Interrupted: task ${taskId} was asked to stop.`)
    }
    const task = await send('tasks/get', { taskId })
    const status = String(task.status)
    report(task, handlers, lastMessage)
    if (typeof task.statusMessage === 'string') lastMessage = task.statusMessage
    if (status === 'completed') return isObject(task.result) ? task.result : {}
    if (status === 'failed') {
      const error = isObject(task.error) ? task.error : {}
      throw new RpcError(
        Number(error.code ?? wireMappings.TESSERA_INTERNAL.jsonrpc),
        String(error.message ?? 'The task failed.'),
        error.data,
      )
    }
    if (status === 'cancelled') throw new TransportError(`Task ${taskId} was cancelled.`)
    if (status === 'input_required' && isObject(task.inputRequests)) {
      const responses = await answers(task.inputRequests, answered, handlers).catch(
        async (error: unknown) => {
          // A question that cannot be answered ends the wait: the task is asked to stop, not left waiting.
          await send('tasks/cancel', { taskId }).catch(() => undefined)
          throw error
        },
      )
      if (Object.keys(responses).length > 0) {
        await send('tasks/update', { taskId, inputResponses: responses })
        continue
      }
    }
    await pause(interval, signal)
  }
  throw new TransportError(`Task ${taskId} did not end after ${MAX_POLLS} status checks.`)
}

/** Answers every question not answered yet (keys are never reused, so a key is asked once). */
async function answers(
  requests: JsonObject,
  answered: Set<string>,
  handlers: RequestHandlers,
): Promise<JsonObject> {
  const responses: JsonObject = {}
  for (const [key, request] of Object.entries(requests)) {
    if (answered.has(key)) continue
    if (handlers.ask === undefined) throw new TransportError(`The task asks '${key}' and nothing answers it.`)
    const { method, params } = request as { method?: unknown; params?: unknown }
    responses[key] = await handlers.ask({
      key,
      method: String(method),
      params: isObject(params) ? params : {},
    })
    answered.add(key)
  }
  return responses
}

function report(task: JsonObject, handlers: RequestHandlers, lastMessage: string | undefined): void {
  const meta = isObject(task._meta) ? task._meta : {}
  const progress = isObject(meta[PROGRESS_META]) ? meta[PROGRESS_META] : undefined
  const message = typeof task.statusMessage === 'string' ? task.statusMessage : undefined
  if (progress !== undefined && typeof progress.progress === 'number') {
    handlers.onProgress?.({
      progress: progress.progress,
      total: typeof progress.total === 'number' ? progress.total : undefined,
      message,
    })
  } else if (message !== undefined && message !== lastMessage) {
    handlers.onLog?.({ level: 'info', data: message })
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        resolve()
      },
      { once: true },
    )
  })
}
