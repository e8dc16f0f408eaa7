/**
 * @module task-call
 * How a `tools/call` becomes a task. A tool whose task starts with the call is stored as a task
 * before its handler runs, and the client gets the `CreateTaskResult` at once. A tool whose task
 * starts in the handler runs in the request until it calls `ctx.startTask()` (after the questions
 * that decide whether to act, answered in ordinary rounds): the task is stored then, the client
 * gets its `CreateTaskResult`, and the running handler is followed to its end. Either way the
 * task exists in the store before the client hears of it. When the store cannot take the task,
 * the call goes on synchronously instead: nothing is lost and nothing runs twice. A task the
 * bounds refuse (too large, or too many for its principal) refuses the call.
 */
import { TesseraError } from '../../errors.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import type { Exchange } from '../exchange.ts'
import type { RecordedAnswer, RoundState } from '../mrtr/round-state.ts'
import type { TaskHandle } from './task-handle.ts'
import { createTaskResult, type TaskRecord } from './task-record.ts'
import {
  adoptTask,
  launchTask,
  type TaskBody,
  type TaskControl,
  type TaskRunner,
  taskControl,
} from './task-run.ts'

export interface TaskLaunch {
  start: 'call' | 'handler'
  runner: TaskRunner
  body: TaskBody
  auth: AuthInfo | undefined
  /** The request's `waitUntil`, which keeps the run going after the response (a Worker's). */
  waitUntil: Exchange['waitUntil']
  /** A new task record for this call, carrying `answers`, with the id `id`. */
  record(id: string, answers: RecordedAnswer[]): TaskRecord
}

/** How long a duplicate of a single-use answer waits for the task its twin is storing right now. */
const TWIN_WAIT_MS = 1000
const TWIN_POLL_MS = 20

/**
 * Stores the task of a call that is a task from its start and runs its handler in the
 * background; undefined when the store could not take it (the call then runs synchronously).
 */
export async function beginTask(
  launch: TaskLaunch,
  round: RoundState,
  idempotencyKey: string | undefined,
): Promise<Record<string, unknown> | undefined> {
  const service = launch.runner.service
  const task = keyed(launch.record(service.newId(round.nonce), round.carried()), idempotencyKey)
  if (!(await stored(service, task))) return undefined
  launchTask(launch.runner, task, launch.body, launch.auth, launch.waitUntil)
  return createTaskResult(task)
}

/** The task of a single-use answer keeps the answer's idempotency key for every later run. */
function keyed(task: TaskRecord, idempotencyKey: string | undefined): TaskRecord {
  return idempotencyKey === undefined ? task : { ...task, call: { ...task.call, idempotencyKey } }
}

/**
 * Stores a new task; false (logged) when the store cannot take it. A refusal meant for the
 * client (a record over its bound, a principal with all the tasks it may keep) is thrown: running
 * such a call synchronously instead would slip past the bound.
 */
async function stored(service: TaskRunner['service'], task: TaskRecord): Promise<boolean> {
  try {
    await service.create(task)
    return true
  } catch (error) {
    if (error instanceof TesseraError && error.code !== 'TESSERA_STORE_UNAVAILABLE') throw error
    service.logger.warn(
      { event: 'task_not_started', err: error },
      'the task store could not take the task; the call goes on synchronously',
    )
    return false
  }
}

export interface HandlerStart {
  /** What `ctx.startTask()` calls. */
  hook(answers: RecordedAnswer[]): Promise<{ handle: TaskHandle; exchange: Exchange } | undefined>
  /** The handler's result if it ends before starting a task; the `CreateTaskResult` once it starts one. */
  race<R>(running: Promise<R>): Promise<R>
}

/** The task start of a handler that decides when its call becomes a task. */
export function handlerStart(
  launch: TaskLaunch,
  round: RoundState,
  idempotencyKey: string | undefined,
): HandlerStart {
  const service = launch.runner.service
  let started: { task: TaskRecord; control: TaskControl } | undefined
  let announce: () => void = () => {}
  const announced = new Promise<void>((resolve) => {
    announce = resolve
  })
  const adopt = (running: Promise<unknown>) => {
    const { task, control } = started!
    adoptTask(launch.runner, task, running as Promise<never>, round, control, launch.body, launch.waitUntil)
    return createTaskResult(task)
  }
  return {
    async hook(answers) {
      const task = keyed(launch.record(service.newId(round.nonce), answers), idempotencyKey)
      if (!(await stored(service, task))) return undefined
      const control = taskControl(service, task, launch.auth)
      started = { task, control }
      announce()
      return { handle: control.handle, exchange: control.exchange }
    },
    async race<R>(running: Promise<R>): Promise<R> {
      const first = await Promise.race([
        running.then(
          (value) => ({ settled: true as const, value }),
          (error: unknown) => ({ settled: true as const, error, threw: true }),
        ),
        announced.then(() => ({ settled: false as const })),
      ])
      // A task that exists is followed to its end, even by a handler that returned right after starting it.
      if (started !== undefined) return adopt(running) as R
      if (!first.settled) throw new Error('a task was announced but not started')
      if ('threw' in first) throw first.error
      return first.value
    },
  }
}

/** The current `CreateTaskResult` of the task a single-use record names, if it still exists. */
export async function replayTask(
  launch: TaskLaunch,
  outcome: string,
): Promise<Record<string, unknown> | undefined> {
  let recorded: unknown
  try {
    recorded = JSON.parse(outcome)
  } catch {
    return undefined
  }
  const taskId = (recorded as { resultType?: unknown; taskId?: unknown } | null)?.taskId
  if ((recorded as { resultType?: unknown })?.resultType !== 'task' || typeof taskId !== 'string')
    return undefined
  const task = await launch.runner.service.read(taskId, launch.auth)
  return task === undefined ? undefined : createTaskResult(task)
}

/**
 * The task a twin of this single-use answer is storing right now (its id follows from the
 * answer's nonce): a duplicate gets the same task, not a second run and not a wait for the work.
 */
export async function twinTask(
  launch: TaskLaunch,
  nonce: string,
): Promise<Record<string, unknown> | undefined> {
  const service = launch.runner.service
  const id = service.newId(nonce)
  const until = Date.now() + TWIN_WAIT_MS
  for (;;) {
    const task = await service.read(id, launch.auth)
    if (task !== undefined) return createTaskResult(task)
    if (Date.now() >= until) return undefined
    await new Promise((resolve) => setTimeout(resolve, TWIN_POLL_MS))
  }
}
