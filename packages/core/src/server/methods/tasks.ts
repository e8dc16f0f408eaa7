/**
 * @module tasks
 * `tasks/get`, `tasks/update` and `tasks/cancel`, the methods of the tasks extension (which
 * refuses a request that did not declare it, -32021). Each serves only the caller's own tasks:
 * an id that is unknown, expired or another principal's gets the same -32602. Each also demands the scopes of the tool
 * the task runs, as the call did (403 with the step-up challenge otherwise): a weaker token of
 * the same principal neither reads, answers nor cancels it. Updates and cancels answer with an
 * empty acknowledgement; what they changed is seen by the next `tasks/get`.
 */
import { TesseraError } from '../../errors.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import { newFence } from '../../security/replay/replay-store.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import { permits, requireScopes } from '../authorization.ts'
import type { Catalogue } from '../catalogue.ts'
import type { ExtensionCall } from '../extensions/extension.ts'
import type { RecordedAnswer } from '../mrtr/round-state.ts'
import type { RegisteredTool } from '../registry/tools.ts'
import type { Services } from '../services.ts'
import { detailedTask, failedWith, type TaskRecord, withoutInputs } from '../tasks/task-record.ts'
import { launchTask } from '../tasks/task-run.ts'
import type { OrphanRuns } from '../tasks/task-service.ts'
import { taskOf } from '../tasks/tool-task.ts'
import { taskArguments, toolTaskBody } from './tools.ts'

/** What the tasks methods run on: the tools tasks run and the server's task services. */
export interface TasksHost {
  readonly catalogue: Pick<Catalogue, 'tools'>
  readonly services: Pick<Services, 'tasks' | 'logger'>
}

export async function getTask(host: TasksHost, call: ExtensionCall): Promise<JsonObject> {
  return detailedTask(await permittedTask(host, call))
}

/** The caller's task, when the caller also holds every scope of the tool it runs. */
async function permittedTask(host: TasksHost, call: ExtensionCall): Promise<TaskRecord> {
  const task = await host.services.tasks.service.find(call.params.taskId, call.auth)
  requireTaskScopes(host.catalogue, task, call.auth)
  return task
}

/**
 * Demands of `auth` the scopes of what `task` runs: those its tool needed when the task began and
 * those it needs now, so neither a narrowed registration nor a removed tool lowers the bar.
 */
export function requireTaskScopes(
  catalogue: Pick<Catalogue, 'tools'>,
  task: TaskRecord,
  auth: AuthInfo | undefined,
): void {
  requireScopes(taskScopes(catalogue, task), auth, `Tool '${task.call.tool}'`)
}

function taskScopes(catalogue: Pick<Catalogue, 'tools'>, task: TaskRecord): readonly string[] {
  const current = catalogue.tools.get(task.call.tool)?.scopes ?? []
  const recorded = task.call.scopes ?? []
  return recorded.length === 0 ? current : [...new Set([...recorded, ...current])]
}

/** What running a task again needs of the server. */
type TaskRunServices = Pick<Services, 'tasks' | 'logger'>

/**
 * How the task service runs a dead worker's task again here: its tool must still run as a task
 * and accept the stored arguments, and the reader must hold the tool's scopes; the handler then
 * sees the reader's token.
 */
export function orphanRuns(catalogue: Pick<Catalogue, 'tools'>, services: TaskRunServices): OrphanRuns {
  return {
    runnable: (task) => runnableTool(catalogue, task) !== undefined,
    permitted: (task, auth) => permits(taskScopes(catalogue, task), auth),
    rerun(task, auth) {
      const runnable = runnableTool(catalogue, task)
      if (runnable === undefined)
        return void gone(services, task, `tool '${task.call.tool}' cannot run the task again`)
      launchTask(services.tasks, task, toolTaskBody(services.logger, runnable.tool, runnable.args), auth)
    },
  }
}

/** The tool of `task` and its arguments checked again, when the tool still runs as a task. */
function runnableTool(
  catalogue: Pick<Catalogue, 'tools'>,
  task: TaskRecord,
): { tool: RegisteredTool; args: Record<string, unknown> } | undefined {
  const tool = catalogue.tools.get(task.call.tool)
  if (tool === undefined || taskOf(tool) === undefined) return undefined
  try {
    return { tool, args: taskArguments(tool, task.call.arguments) }
  } catch {
    return undefined
  }
}

/**
 * Records the answers to questions the task is waiting on (keys it is not waiting on are
 * ignored); once none is left, the task runs again, on this instance, from the top, with every
 * answer it gathered.
 */
export async function updateTask(host: TasksHost, call: ExtensionCall): Promise<JsonObject> {
  const responses = call.params.inputResponses
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) {
    throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: inputResponses must be an object.')
  }
  const { service } = host.services.tasks
  const task = await permittedTask(host, call)
  if (task.status !== 'input_required') return {}
  let fence: string | undefined
  const stored = await service.mutate(task.id, (current) => {
    const next = answered(current, responses as JsonObject, service.settings.leaseMs)
    if (next !== current) service.assertBounded(next)
    fence = next.status === 'working' && next !== current ? next.lease?.fence : undefined
    return next
  })
  if (stored !== undefined && fence !== undefined && stored.lease?.fence === fence) resume(host, call, stored)
  return {}
}

export async function cancelTask(host: TasksHost, call: ExtensionCall): Promise<JsonObject> {
  const task = await permittedTask(host, call)
  await host.services.tasks.service.cancel(task)
  return {}
}

/** The task with `responses` recorded; working again, leased to this instance, when none is left. */
function answered(current: TaskRecord, responses: JsonObject, leaseMs: number): TaskRecord {
  if (current.status !== 'input_required' || current.inputs === undefined) return current
  const inputs = { ...current.inputs }
  const answers = new Map<string, RecordedAnswer>(current.call.answers.map((entry) => [entry.k, entry]))
  let changed = false
  for (const [wireKey, raw] of Object.entries(responses)) {
    const input = Object.hasOwn(inputs, wireKey) ? inputs[wireKey] : undefined
    if (input === undefined || raw === undefined) continue
    answers.set(input.key, { k: input.key, d: input.digest, a: raw })
    delete inputs[wireKey]
    changed = true
  }
  if (!changed) return current
  const call = { ...current.call, answers: [...answers.values()] }
  if (Object.keys(inputs).length > 0) return { ...current, inputs, call }
  const lease = { fence: newFence(), until: Date.now() + leaseMs }
  return { ...withoutInputs(current), status: 'working', call, lease }
}

/** Runs a task whose last answer just arrived, here: its tool must still be registered. */
function resume(host: TasksHost, call: ExtensionCall, task: TaskRecord): void {
  const { catalogue, services } = host
  const tool = catalogue.tools.get(task.call.tool)
  if (tool === undefined || taskOf(tool) === undefined)
    return void gone(services, task, `tool '${task.call.tool}' no longer runs as a task`)
  let args: Record<string, unknown>
  try {
    args = taskArguments(tool, task.call.arguments)
  } catch {
    return void gone(services, task, `tool '${task.call.tool}' no longer accepts the task's arguments`)
  }
  const body = toolTaskBody(services.logger, tool, args)
  launchTask(services.tasks, task, body, call.auth, call.waitUntil)
}

/** A task that cannot run again here ends failed, with the reason in the logs. */
async function gone(services: TaskRunServices, task: TaskRecord, reason: string): Promise<void> {
  services.logger.error({ event: 'task_not_resumed', taskId: task.id, reason }, 'task cannot resume')
  const error = new TesseraError('TESSERA_INTERNAL', 'Internal error: the task could not be resumed.')
  await services.tasks.service
    .settle(task.id, task.lease?.fence ?? '', (current) => failedWith(current, error))
    .catch((err: unknown) =>
      services.logger.error({ event: 'task_settle_failed', taskId: task.id, err }, 'task end not recorded'),
    )
}
