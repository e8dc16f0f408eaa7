/**
 * @module tasks
 * A client's side of the tasks extension for tests: the capabilities that declare it, and
 * polling a task until it reaches a status.
 */
import { ALL_CAPS, type Json, type McpHttpClient, resultOf } from './mcp-http.ts'
import { sleep } from './timing.ts'

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks'

/** Capabilities that let the server ask for anything and return tasks. */
export const TASK_CAPS: Json = { ...ALL_CAPS, extensions: { [TASKS_EXTENSION]: {} } }

const TERMINAL = new Set(['completed', 'failed', 'cancelled'])

/** `tasks/get` until the task is in one of `statuses` (default: any terminal one). */
export async function pollTask(
  client: McpHttpClient,
  taskId: string,
  statuses: readonly string[] = [...TERMINAL],
  options: { timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<Json> {
  const until = Date.now() + (options.timeoutMs ?? 5000)
  for (;;) {
    const task = resultOf(
      await client.request('tasks/get', { taskId }, { caps: TASK_CAPS, headers: options.headers }),
    )
    if (statuses.includes(String(task.status))) return task
    if (Date.now() > until) throw new Error(`task ${taskId} stayed ${String(task.status)}`)
    await sleep(20)
  }
}
