/**
 * @module interactive
 * Runs a handler that may ask the client for input (`tools/call`, `prompts/get`,
 * `resources/read`). Verifies the echoed requestState against the call's binding, rebuilds the
 * round, runs the handler (under the single-use guard when the target asks for it), and turns an
 * ask into an `InputRequiredResult` with a freshly sealed state. A refused question is never asked
 * again: the call ends instead. A handler that swallows its ask is reported, never answered.
 */

import { sha256Base64url } from '#crypto'
import { TesseraError } from '../../errors.ts'
import type { Observer } from '../../observation/observer.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { InputRequest } from '../../protocol/modern/input-requests.ts'
import type { GuardOutcome } from '../../security/replay/guard.ts'
import { withFields } from '../../with-fields.ts'
import { type ContextInit, RequestContext } from '../context.ts'
import type { Services } from '../services.ts'
import {
  beginTask,
  type HandlerStart,
  handlerStart,
  replayTask,
  type TaskLaunch,
  twinTask,
} from '../tasks/task-call.ts'
import { assertDeclared, swallowedAsk } from './ask-checks.ts'
import { AskSignal } from './ask-signal.ts'
import { isRoundPayload, type RoundPayload, RoundState } from './round-state.ts'
import { INVALID_STATE_MESSAGE } from './state-service.ts'

/** What running a round needs of the server. */
export type RoundServices = Pick<Services, 'state' | 'guard' | 'observer' | 'maxRounds'>

export interface InteractiveCall<R> {
  services: RoundServices
  method: string
  params: JsonObject
  init: ContextInit
  /** What the handler is, for the report of a swallowed ask (`tool 'deploy'`). */
  target: string
  /** Present when answers must be consumed at most once (single-use tools). */
  singleUse?: { what: string; onDuplicate(outcome: string): R; onInProgress(): R }
  /** The result that ends a call whose question was refused (decline or cancel). */
  onRefusal(): R
  /** Runs the handler; an ask throws `AskSignal`. A handler that answers at once may answer so. */
  invoke(ctx: RequestContext): R | Promise<R>
  /** Turns a result into the outcome text a single-use record keeps. */
  describe?(result: R): string
  /** Present when this call runs as a task (the tool allows it, the client declared the extension). */
  task?: TaskLaunch
}

export interface InputRequiredWire {
  resultType: 'input_required'
  inputRequests?: Record<string, InputRequest>
  requestState: string
}

/**
 * Not itself async, nor is `execute` for a call without a guard: a plain call's result passes
 * through no promise of theirs. A call carrying a state waits for it to open. What they throw
 * before the handler runs reaches the caller's `await` alike.
 */
export function runInteractive<R>(call: InteractiveCall<R>): Promise<R | InputRequiredWire> {
  const incoming = readInputResponses(call.params.inputResponses)
  const token = call.params.requestState
  if (token !== undefined) return resume(call, incoming, token)
  if (incoming === undefined) return proceed(call, RoundState.empty(), undefined)
  // Answers without a state can only be volunteered like arguments; a single-use target
  // must never act on them, because there is no nonce to consume.
  if (call.singleUse) throw new TesseraError('TESSERA_INVALID_STATE', INVALID_STATE_MESSAGE)
  return proceed(call, new RoundState(incoming, undefined, undefined), undefined)
}

/** A later round: the state it carries is opened against this call's binding. */
async function resume<R>(
  call: InteractiveCall<R>,
  incoming: ReturnType<typeof readInputResponses>,
  token: unknown,
): Promise<R | InputRequiredWire> {
  const { services, method, params } = call
  const binding = services.state.bind(method, params, call.init.exchange.auth)
  const opened = await services.state.open<{ m?: RoundPayload }>(token, binding, method)
  const payload = opened.payload?.m
  if (!isRoundPayload(payload)) throw new TesseraError('TESSERA_INVALID_STATE', INVALID_STATE_MESSAGE)
  const round = new RoundState(incoming, payload, opened.nonce)
  if (services.observer.wants('round-answered')) {
    services.observer.announce({
      step: 'round-answered',
      nonce: opened.nonce,
      expiresAt: opened.expiresAt,
      round: payload.r,
      questions: payload.q.map(([key]) => key),
      answers: incoming,
      link: payload.s,
    })
  }
  return proceed(call, round, binding)
}

function proceed<R>(
  call: InteractiveCall<R>,
  round: RoundState,
  binding: string | undefined,
): Promise<R | InputRequiredWire> {
  const key = call.singleUse && round.nonce !== undefined ? idempotencyKeyOf(round.nonce) : undefined
  const starter = call.task?.start === 'handler' ? handlerStart(call.task, round, key) : undefined
  // Most calls neither start a task in the handler nor answer a single-use round: no copy for them.
  const init: ContextInit =
    starter || key !== undefined
      ? withFields(call.init, { startTask: starter?.hook, idempotencyKey: key })
      : call.init
  const ctx = new RequestContext(init, round)
  return execute(call, ctx, round, binding, starter)
}

function execute<R>(
  call: InteractiveCall<R>,
  ctx: RequestContext,
  round: RoundState,
  binding: string | undefined,
  starter: HandlerStart | undefined,
): Promise<R | InputRequiredWire> {
  const once = async (): Promise<R | InputRequiredWire> => {
    if (call.task?.start === 'call') {
      const created = await beginTask(call.task, round, ctx.request.idempotencyKey)
      if (created !== undefined) return created as R
    }
    let out: R
    try {
      const invoke = () => call.invoke(ctx)
      out = await call.services.observer.phase('handler', () =>
        starter ? starter.race(promised(invoke)) : invoke(),
      )
    } catch (error) {
      if (!(error instanceof AskSignal)) throw error
      round.pendingAsk = undefined
      return await ask(call, ctx, round, error, binding)
    }
    // Once a task, the handler runs on: what it asks from now on parks the task instead.
    if (ctx.task !== undefined) return out
    if (round.pendingAsk !== undefined) throw swallowedAsk(call.target)
    return out
  }
  const single = call.singleUse
  if (!single || round.nonce === undefined) return once()
  return guarded(call, single, round, round.nonce, once)
}

/** What `work` returns or throws, as a promise. */
function promised<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(work())
  } catch (error) {
    return Promise.reject(error)
  }
}

/** The round answered under the single-use guard: claimed once, its outcome replayed to every copy. */
async function guarded<R>(
  call: InteractiveCall<R>,
  single: NonNullable<InteractiveCall<R>['singleUse']>,
  round: RoundState,
  nonce: string,
  once: () => Promise<R | InputRequiredWire>,
): Promise<R | InputRequiredWire> {
  const guard = call.services.guard
  // A state sealed without the store's epoch (or on another) cannot be told from a replay by a
  // store that may have lost its records since: refused, like any state that does not hold.
  const epoch = round.payload?.e
  if (epoch === undefined) refuseStale(call)
  // The nonce is consumed by whatever this round answers, a follow-up question included: a retry
  // of this round gets the same follow-up (same next state) instead of a second, parallel branch.
  const { observer } = call.services
  const result = await observer.phase('single-use guard', () =>
    guard.run(
      nonce,
      single.what,
      call.services.state.ttlSeconds * 1000,
      once,
      (value) => (isWire(value) ? JSON.stringify(value) : (call.describe?.(value as R) ?? 'done')),
      epoch,
    ),
  )
  if (observer.wants('single-use')) announceSingleUse(observer, nonce, single.what, result)
  if (result.status === 'stale') refuseStale(call)
  if (result.status === 'executed') return result.value
  if (result.status === 'in_progress') {
    // The twin of this answer may be storing its task right now: then that task is the answer.
    const twin = call.task === undefined ? undefined : await twinTask(call.task, nonce)
    return twin === undefined ? single.onInProgress() : (twin as R)
  }
  const recorded = parseWire(result.outcome)
  if (recorded !== undefined) return recorded
  const task = call.task === undefined ? undefined : await replayTask(call.task, result.outcome)
  return task === undefined ? single.onDuplicate(result.outcome) : (task as R)
}

/** What a handler stores with its side effect: derived from the nonce, so it names the answer without revealing the nonce. */
function idempotencyKeyOf(nonce: string): string {
  return sha256Base64url(`tessera idempotency key\0${nonce}`)
}

function isWire(value: unknown): value is InputRequiredWire {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { resultType?: unknown }).resultType === 'input_required'
  )
}

function parseWire(outcome: string): InputRequiredWire | undefined {
  try {
    const value: unknown = JSON.parse(outcome)
    return isWire(value) ? value : undefined
  } catch {
    return undefined
  }
}

/** The answer's state was sealed on a replay store epoch that is gone: the fixed -32602, the reason logged. */
function refuseStale(call: InteractiveCall<unknown>): never {
  call.services.state.refuse('store-epoch', call.method)
  throw new TesseraError('TESSERA_INVALID_STATE', INVALID_STATE_MESSAGE)
}

async function ask<R>(
  call: InteractiveCall<R>,
  ctx: RequestContext,
  round: RoundState,
  signal: AskSignal,
  knownBinding: string | undefined,
): Promise<R | InputRequiredWire> {
  const keys = Object.keys(signal.requests)
  if (keys.some((key) => round.isRefused(key))) return call.onRefusal()
  if (round.round + 1 > call.services.maxRounds) {
    throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: too many input rounds for one call.')
  }
  assertDeclared(ctx.client.capabilities, signal.requests)
  const binding = knownBinding ?? call.services.state.bind(call.method, call.params, call.init.exchange.auth)
  const payload: RoundPayload = {
    r: round.round + 1,
    q: keys.map((key) => [key, round.digestOf(key, signal.requests[key]!)]),
    g: round.gathered(),
  }
  const first = round.payload?.s ?? call.services.observer.link()
  if (first !== undefined) payload.s = first
  // Its answer will be claimed: on the store's epoch of now.
  if (call.singleUse) payload.e = await call.services.guard.epoch()
  const wire: InputRequiredWire = {
    resultType: 'input_required',
    requestState: await call.services.state.mint({ m: payload }, binding),
  }
  if (keys.length > 0) wire.inputRequests = { ...signal.requests }
  if (call.services.observer.wants('asked'))
    await announceAsked(call.services, wire.requestState, binding, payload)
  return wire
}

/** The state an ask just sealed, opened again on the server's side for the observer. */
async function announceAsked(
  services: RoundServices,
  token: string,
  binding: string,
  payload: RoundPayload,
): Promise<void> {
  const sealed = await services.state.peek(token, binding)
  if (sealed === undefined) return
  services.observer.announce({
    step: 'asked',
    nonce: sealed.nonce,
    expiresAt: sealed.expiresAt,
    round: payload.r,
    questions: payload.q.map(([key]) => key),
    carried: payload.g.map(({ k, a }) => ({ key: k, answer: a })),
  })
}

function announceSingleUse(
  observer: Observer,
  nonce: string,
  what: string,
  result: GuardOutcome<unknown>,
): void {
  const status = result.status === 'duplicate' ? 'replayed' : result.status
  const outcome = result.status === 'executed' || result.status === 'duplicate' ? result.outcome : undefined
  observer.announce({
    step: 'single-use',
    nonce,
    what,
    status,
    ...(outcome === undefined ? {} : { outcome }),
  })
}

function readInputResponses(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: inputResponses must be an object.')
  }
  return value as Record<string, unknown>
}
