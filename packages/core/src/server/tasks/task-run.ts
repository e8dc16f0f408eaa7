/**
 * @module task-run
 * One run of a task's handler on the worker that holds its lease: the lease renewed while it
 * runs (its loss, or a cancel, aborts the handler's signal), then what the run ended with
 * written to the task, only while the task is still this worker's. A run ends one of four ways:
 * a result (completed, tool errors included), an ask (input_required, under keys the task never
 * used before), a protocol error (failed), or a stop after a cancel (cancelled).
 */
import { TesseraError } from '../../errors.ts'
import type { JsonObject, ResultObject } from '../../protocol/jsonrpc/message.ts'
import { keepLease } from '../../security/replay/lease.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import { type ContextInit, RequestContext } from '../context.ts'
import type { Exchange } from '../exchange.ts'
import { assertDeclared, swallowedAsk } from '../mrtr/ask-checks.ts'
import { AskSignal } from '../mrtr/ask-signal.ts'
import { questionDigest, RoundState } from '../mrtr/round-state.ts'
import { TaskHandle, type TaskReport } from './task-handle.ts'
import {
  cancelledByClient,
  failedWith,
  type OutstandingInput,
  type TaskRecord,
  withoutInputs,
} from './task-record.ts'
import type { TaskService } from './task-service.ts'

/** What a task runs: the handler of its tool, and what its failures and refusals become. */
export interface TaskBody {
  /** For messages: `Tool 'deploy'`. */
  target: string
  run(ctx: RequestContext): Promise<ResultObject>
  /** What a throw that is neither an ask nor a protocol error becomes (an `isError` tool result). */
  failure(error: unknown, signal: AbortSignal): ResultObject
  /** The result of a call one of whose questions was declined or cancelled. */
  refusal(): ResultObject
}

export interface TaskRunner {
  service: TaskService
  maxRounds: number
}

/** The cancellation and reporting of one run, made when the run's lease starts. */
export interface TaskControl {
  controller: AbortController
  handle: TaskHandle
  exchange: Exchange
}

export function taskControl(service: TaskService, task: TaskRecord, auth: AuthInfo | undefined): TaskControl {
  const controller = new AbortController()
  const fence = task.lease?.fence ?? ''
  const write = async (report: TaskReport) => {
    await service.mutate(task.id, (current) =>
      current.status === 'working' && current.lease?.fence === fence ? { ...current, ...report } : current,
    )
  }
  const handle = new TaskHandle(task.id, controller.signal, write)
  // Progress and log notifications do not exist for tasks: a handler reports through ctx.task.
  const exchange: Exchange = { headers: undefined, auth, send() {}, signal: controller.signal }
  return { controller, handle, exchange }
}

/** Runs the body of `task` (leased to this process) in the background, from the top. */
export function launchTask(
  runner: TaskRunner,
  task: TaskRecord,
  body: TaskBody,
  auth: AuthInfo | undefined,
  waitUntil?: Exchange['waitUntil'],
): void {
  const control = taskControl(runner.service, task, auth)
  const round = new RoundState(undefined, { r: task.call.round, q: [], g: task.call.answers }, undefined)
  const init: ContextInit = {
    requestId: task.id,
    method: 'tools/call',
    era: 'modern',
    protocolVersion: task.call.protocolVersion,
    clientCapabilities: task.call.clientCapabilities,
    clientInfo: task.call.clientInfo,
    logLevel: undefined,
    progressToken: undefined,
    exchange: control.exchange,
    logger: runner.service.logger,
    target: task.call.tool,
    task: control.handle,
  }
  if (task.call.idempotencyKey !== undefined) init.idempotencyKey = task.call.idempotencyKey
  const ctx = new RequestContext(init, round)
  const running = Promise.resolve().then(() => body.run(ctx))
  keepRunning(runner, follow(runner, task, running, round, control, body), waitUntil)
}

/** Takes over a handler already running in a request that has just become `task`. */
export function adoptTask(
  runner: TaskRunner,
  task: TaskRecord,
  running: Promise<JsonObject>,
  round: RoundState,
  control: TaskControl,
  body: TaskBody,
  waitUntil?: Exchange['waitUntil'],
): void {
  keepRunning(runner, follow(runner, task, running, round, control, body), waitUntil)
}

/**
 * A run goes on after the response that started it; where the platform would cancel it, it is
 * kept, with the events it published, until they have left this instance.
 */
function keepRunning(runner: TaskRunner, run: Promise<void>, waitUntil: Exchange['waitUntil']): void {
  if (waitUntil === undefined) void run
  else waitUntil(run.then(() => runner.service.published()))
}

type RunEnd =
  | { kind: 'result'; result: JsonObject }
  | { kind: 'ask'; ask: AskSignal }
  | { kind: 'error'; error: unknown }

async function follow(
  runner: TaskRunner,
  task: TaskRecord,
  running: Promise<JsonObject>,
  round: RoundState,
  control: TaskControl,
  body: TaskBody,
): Promise<void> {
  const { service } = runner
  const lease = task.lease
  if (lease === undefined) throw new Error('a task runs only under a lease')
  const log = service.logger
  const abort = (reason: string) => {
    if (!control.controller.signal.aborted) control.controller.abort(new TaskStoppedError(reason))
  }
  let ended: () => void = () => {}
  const unregister = service.running(
    task.id,
    abort,
    new Promise<void>((resolve) => {
      ended = resolve
    }),
  )
  const leaseMs = service.settings.leaseMs
  const kept = keepLease({
    leaseMs,
    renewEveryMs: Math.floor(leaseMs / 3),
    sentAt: lease.until - leaseMs,
    renew: async () => {
      const renewed = await service.renew(task.id, lease.fence)
      if (renewed.cancelRequested) abort('cancelled by the client')
      return renewed.held
    },
    onRenewError: (error) =>
      log.warn({ event: 'task_renew_failed', taskId: task.id, err: error }, 'task lease renewal failed'),
    onLost: (reason) => {
      log.error({ event: 'task_lease_lost', taskId: task.id, reason }, 'task lease lost; the run is stopped')
      abort(`lease lost: ${reason}`)
    },
  })
  let end: RunEnd
  try {
    const result = await running
    end =
      round.pendingAsk === undefined
        ? { kind: 'result', result }
        : { kind: 'error', error: swallowedAsk(body.target) }
  } catch (error) {
    end = error instanceof AskSignal ? { kind: 'ask', ask: error } : { kind: 'error', error }
  }
  await control.handle.flushed()
  await kept.stop()
  try {
    const written = await service.settle(task.id, lease.fence, (current) =>
      ending(runner, current, end, round, body, control.controller.signal),
    )
    if (written === undefined) {
      log.warn({ event: 'task_run_superseded', taskId: task.id }, 'task run ended after its task moved on')
    } else {
      log.info({ event: 'task_run_ended', taskId: task.id, status: written.status }, 'task run ended')
    }
  } catch (error) {
    // The lease runs out, after which the task reads as failed: it never stays working.
    log.error({ event: 'task_settle_failed', taskId: task.id, err: error }, 'task outcome not recorded')
  } finally {
    unregister()
    ended()
  }
}

function ending(
  runner: TaskRunner,
  current: TaskRecord,
  end: RunEnd,
  round: RoundState,
  body: TaskBody,
  signal: AbortSignal,
): TaskRecord {
  if (current.cancelRequested && end.kind !== 'result') {
    return cancelledByClient(current)
  }
  switch (end.kind) {
    case 'result':
      return { ...withoutInputs(current), status: 'completed', result: end.result }
    case 'ask':
      return parked(runner, current, end.ask, round, body)
    case 'error': {
      if (end.error instanceof TesseraError) return failedWith(current, end.error)
      if (signal.aborted) {
        const reason = signal.reason instanceof TaskStoppedError ? signal.reason.message : 'stopped'
        return failedWith(current, new TesseraError('TESSERA_INTERNAL', `The task was stopped: ${reason}.`))
      }
      return { ...withoutInputs(current), status: 'completed', result: body.failure(end.error, signal) }
    }
  }
}

/** The task waits for the answers to the run's questions, each under a key it never used. */
function parked(
  runner: TaskRunner,
  current: TaskRecord,
  ask: AskSignal,
  round: RoundState,
  body: TaskBody,
): TaskRecord {
  const keys = Object.keys(ask.requests)
  if (keys.some((key) => round.isRefused(key))) {
    return { ...withoutInputs(current), status: 'completed', result: body.refusal() }
  }
  if (current.call.round + 1 > runner.maxRounds) {
    return failedWith(
      current,
      new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: too many input rounds for one call.'),
    )
  }
  try {
    assertDeclared(current.call.clientCapabilities, ask.requests)
  } catch (error) {
    if (error instanceof TesseraError) return failedWith(current, error)
    throw error
  }
  const used = new Set(current.usedKeys)
  const inputs: Record<string, OutstandingInput> = {}
  for (const key of keys) {
    const request = ask.requests[key]!
    const wireKey = unusedKey(key, used)
    used.add(wireKey)
    inputs[wireKey] = { key, digest: questionDigest(request), request }
  }
  const { statusMessage: _, ...rest } = current
  return {
    ...rest,
    status: 'input_required',
    inputs,
    usedKeys: [...used],
    call: { ...current.call, answers: round.carried(), round: current.call.round + 1 },
  }
}

/** The handler's own key the first time; after that `key.2`, `key.3`, …: a task never reuses a key. */
function unusedKey(key: string, used: ReadonlySet<string>): string {
  if (!used.has(key)) return key
  for (let n = 2; ; n++) if (!used.has(`${key}.${n}`)) return `${key}.${n}`
}

/** The abort reason of a task run's signal: it was cancelled, or its lease was lost. */
export class TaskStoppedError extends Error {
  override readonly name = 'TaskStoppedError'
}
