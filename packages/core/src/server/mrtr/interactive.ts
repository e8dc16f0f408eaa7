/**
 * @module interactive
 * Runs a handler that may ask the client for input (`tools/call`, `prompts/get`,
 * `resources/read`). Verifies the echoed requestState against the call's binding, rebuilds the
 * round, runs the handler (under the single-use guard when the target asks for it), and turns an
 * ask into an `InputRequiredResult` with a freshly sealed state. A refused question is never asked
 * again: the call ends instead.
 */
import { TesseraError } from '../../errors.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import { declares, type InputKind, requiredCapabilitiesFor } from '../../protocol/modern/capabilities.ts'
import { type ContextInit, RequestContext } from '../context.ts'
import type { ServerCore } from '../server-core.ts'
import { type InputRequest, kindsOf } from './input-requests.ts'
import { AskSignal, InputRequired } from './input-required.ts'
import { questionDigest, type RoundPayload, RoundState } from './round-state.ts'
import { INVALID_STATE_MESSAGE } from './state-service.ts'

export interface InteractiveCall<R> {
  core: ServerCore
  method: string
  params: JsonObject
  init: Omit<ContextInit, 'round'>
  /** Present when answers must be consumed at most once (single-use tools). */
  singleUse?: { what: string; onDuplicate(outcome: string): R; onInProgress(): R }
  /** The result that ends a call whose question was refused (decline or cancel). */
  onRefusal(): R
  invoke(ctx: RequestContext): Promise<R | InputRequired | AskSignal>
  /** Turns a result into the outcome text a single-use record keeps. */
  describe?(result: R): string
}

export interface InputRequiredWire {
  resultType: 'input_required'
  inputRequests?: Record<string, InputRequest>
  requestState: string
}

export async function runInteractive<R>(call: InteractiveCall<R>): Promise<R | InputRequiredWire> {
  const { core, method, params } = call
  const incoming = readInputResponses(params.inputResponses)
  const token = params.requestState
  let binding: string | undefined
  let round = RoundState.empty()
  if (token !== undefined) {
    binding = core.state.bind(method, params, call.init.exchange.auth)
    const opened = core.state.open<{ m?: RoundPayload }>(token, binding, method)
    const payload = opened.payload?.m
    if (!isRoundPayload(payload)) throw new TesseraError('TESSERA_INVALID_STATE', INVALID_STATE_MESSAGE)
    round = new RoundState(incoming, payload, opened.nonce)
  } else if (incoming !== undefined) {
    // Answers without a state can only be volunteered like arguments; a single-use target
    // must never act on them, because there is no nonce to consume.
    if (call.singleUse) throw new TesseraError('TESSERA_INVALID_STATE', INVALID_STATE_MESSAGE)
    round = new RoundState(incoming, undefined, undefined)
  }
  const ctx = new RequestContext({ ...call.init, round })
  const outcome = await execute(call, ctx, round)
  if (!(outcome instanceof InputRequired)) return outcome
  return ask(call, ctx, round, outcome, binding)
}

async function execute<R>(
  call: InteractiveCall<R>,
  ctx: RequestContext,
  round: RoundState,
): Promise<R | InputRequired> {
  const once = async (): Promise<R | InputRequired> => {
    let out: R | InputRequired | AskSignal
    try {
      out = await call.invoke(ctx)
    } catch (error) {
      if (!(error instanceof AskSignal)) throw error
      out = error
    }
    return out instanceof AskSignal ? new InputRequired(out.requests, round.handlerState) : out
  }
  const single = call.singleUse
  const guard = call.core.guard
  if (!single || round.nonce === undefined) return once()
  if (!guard) throw new TypeError('A single-use tool needs `replay.store` in the server options.')
  const ttlMs = call.core.state.ttlSeconds * 1000
  try {
    const result = await guard.run(
      round.nonce,
      single.what,
      ttlMs,
      async () => {
        const out = await once()
        // Asking again acts on nothing: release the nonce so a retry of this round asks again too.
        if (out instanceof InputRequired) throw new AskedAgain(out)
        return out
      },
      (value) => call.describe?.(value as R) ?? 'done',
    )
    if (result.status === 'executed') return result.value
    if (result.status === 'duplicate') return single.onDuplicate(result.outcome)
    return single.onInProgress()
  } catch (error) {
    if (error instanceof AskedAgain) return error.next
    throw error
  }
}

/** Carries a follow-up question out of the guard, which releases the nonce on a throw. */
class AskedAgain {
  constructor(readonly next: InputRequired) {}
}

function ask<R>(
  call: InteractiveCall<R>,
  ctx: RequestContext,
  round: RoundState,
  out: InputRequired,
  knownBinding: string | undefined,
): R | InputRequiredWire {
  const keys = Object.keys(out.requests)
  if (keys.some((key) => round.refusedKeys.has(key))) return call.onRefusal()
  if (round.round + 1 > call.core.maxRounds) {
    throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: too many input rounds for one call.')
  }
  assertDeclared(ctx, out.requests)
  const binding = knownBinding ?? call.core.state.bind(call.method, call.params, call.init.exchange.auth)
  const payload: RoundPayload = {
    r: round.round + 1,
    q: keys.map((key) => [key, questionDigest(out.requests[key]!)]),
    g: round.gathered(),
  }
  if (out.state !== undefined) payload.h = out.state
  const wire: InputRequiredWire = {
    resultType: 'input_required',
    requestState: call.core.state.mint({ m: payload }, binding),
  }
  if (keys.length > 0) wire.inputRequests = { ...out.requests }
  return wire
}

function assertDeclared(ctx: RequestContext, requests: Readonly<Record<string, InputRequest>>): void {
  const missing = new Set<InputKind>()
  for (const request of Object.values(requests)) {
    for (const kind of kindsOf(request)) {
      if (!declares(ctx.clientCapabilities, kind)) missing.add(kind)
    }
  }
  if (missing.size === 0) return
  throw new TesseraError(
    'TESSERA_MISSING_CAPABILITY',
    'Missing required client capability: the server needs input this client did not declare it can provide.',
    { requiredCapabilities: requiredCapabilitiesFor(missing) },
  )
}

function readInputResponses(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: inputResponses must be an object.')
  }
  return value as Record<string, unknown>
}

function isRoundPayload(value: unknown): value is RoundPayload {
  if (typeof value !== 'object' || value === null) return false
  const p = value as Partial<RoundPayload>
  return Number.isInteger(p.r) && Array.isArray(p.q) && Array.isArray(p.g)
}
