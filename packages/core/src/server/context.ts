/**
 * @module context
 * The `ctx` every handler receives: who is asking and with what capabilities, the cancellation
 * signal, progress and log notifications for this request, and the multi round-trip helpers.
 * One object per request, with its methods on the prototype.
 */
import type { JsonObject, JsonRpcId } from '../protocol/jsonrpc/message.ts'
import type { ClientCapabilities } from '../protocol/modern/capabilities.ts'
import type { Implementation } from '../protocol/modern/envelope.ts'
import { type LoggingLevel, passesLevel } from '../protocol/modern/vocabulary.ts'
import type { AuthInfo } from '../security/request-state/binding.ts'
import type { Exchange } from './exchange.ts'
import type { ElicitationAnswer, RootsAnswer, SamplingAnswer } from './mrtr/answers.ts'
import {
  type CreateMessageParams,
  type ElicitFormParams,
  type ElicitUrlParams,
  elicitForm,
  elicitUrl,
  type InputRequest,
  listRoots,
  sampling,
} from './mrtr/input-requests.ts'
import { AskSignal, InputRequired } from './mrtr/input-required.ts'
import type { RoundState } from './mrtr/round-state.ts'

export type AnswerOf<R extends InputRequest> = R extends { method: 'elicitation/create' }
  ? ElicitationAnswer
  : R extends { method: 'sampling/createMessage' }
    ? SamplingAnswer
    : RootsAnswer
export type AnswersOf<T extends Record<string, InputRequest>> = { [K in keyof T]: AnswerOf<T[K]> }

export type Era = 'modern' | 'legacy'

export interface ContextInit {
  requestId: JsonRpcId
  method: string
  era: Era
  protocolVersion: string
  clientCapabilities: ClientCapabilities
  clientInfo: Implementation | undefined
  logLevel: LoggingLevel | undefined
  progressToken: string | number | undefined
  exchange: Exchange
  round: RoundState
}

export class RequestContext {
  readonly requestId: JsonRpcId
  readonly method: string
  readonly era: Era
  readonly protocolVersion: string
  readonly clientCapabilities: ClientCapabilities
  /** Self-reported by the client: display and logging only, never a security decision. */
  readonly clientInfo: Implementation | undefined
  /** @internal the multi round-trip state of this call (answers, rounds, handler state). */
  readonly round: RoundState
  private readonly exchange: Exchange
  private readonly logLevel: LoggingLevel | undefined
  private readonly progressToken: string | number | undefined
  private lastProgress = Number.NEGATIVE_INFINITY
  private finished = false

  constructor(init: Omit<ContextInit, 'round'>, round: RoundState) {
    this.requestId = init.requestId
    this.method = init.method
    this.era = init.era
    this.protocolVersion = init.protocolVersion
    this.clientCapabilities = init.clientCapabilities
    this.clientInfo = init.clientInfo
    this.exchange = init.exchange
    this.logLevel = init.logLevel
    this.progressToken = init.progressToken
    this.round = round
  }

  /** Aborts when the client disconnects (HTTP) or sends notifications/cancelled (stdio). */
  get signal(): AbortSignal {
    return this.exchange.signal
  }

  get auth(): AuthInfo | undefined {
    return this.exchange.auth
  }

  /**
   * Reports progress when the client asked for it (`_meta.progressToken`); otherwise a no-op.
   * Values that do not increase are dropped: the spec requires strictly increasing progress.
   */
  progress(progress: number, total?: number, message?: string): void {
    if (this.progressToken === undefined || this.finished || !(progress > this.lastProgress)) return
    this.lastProgress = progress
    const params: JsonObject = { progressToken: this.progressToken, progress }
    if (total !== undefined) params.total = total
    if (message !== undefined) params.message = message
    this.exchange.notify('notifications/progress', params)
  }

  /**
   * Sends `notifications/message` when this request opted in at or below `level`
   * (modern: `_meta` logLevel; handshake era: the session's `logging/setLevel`).
   * Never put secrets or personal data in `data`.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    if (this.logLevel === undefined || this.finished || !passesLevel(level, this.logLevel)) return
    const params: JsonObject = { level, data }
    if (logger !== undefined) params.logger = logger
    this.exchange.notify('notifications/message', params)
  }

  // ── Multi round-trip requests ────────────────────────────────────────────────────────────
  // On 2026-07-28 a handler that asks ends its round; the client answers by calling again, and
  // the handler runs again FROM THE TOP. Everything above an ask must be safe to repeat: put side
  // effects below the last ask.

  /** The state this handler passed to `inputRequired` in the previous round, if any. */
  get state(): unknown {
    return this.round.handlerState
  }

  /** Explicit style: the validated answer to `request` under `key`, or undefined when not answered. */
  answer<R extends InputRequest>(key: string, request: R): AnswerOf<R> | undefined {
    const found = this.round.lookup(key, request)
    return found.found ? (found.answer as AnswerOf<R>) : undefined
  }

  /**
   * Explicit style: ends this round and asks the client. Return the value from the handler; the
   * handler is called again from the top with the answers under the same keys.
   */
  inputRequired(requests: Record<string, InputRequest>, options?: { state?: unknown }): InputRequired {
    return new InputRequired(requests, options?.state)
  }

  /**
   * Await style: resolves with the answer as if the client answered at once. On 2026-07-28 the
   * first call ends the round; the retry re-runs the handler and replays recorded answers in order.
   */
  async ask<R extends InputRequest>(key: string, request: R): Promise<AnswerOf<R>> {
    const answers = await this.askAll({ [key]: request } as Record<string, R>)
    return answers[key] as AnswerOf<R>
  }

  /** Await style, several questions in one round. */
  async askAll<T extends Record<string, InputRequest>>(requests: T): Promise<AnswersOf<T>> {
    const answers: Record<string, unknown> = {}
    const missing: Record<string, InputRequest> = {}
    for (const [key, request] of Object.entries(requests)) {
      const found = this.round.lookup(key, request)
      if (found.found) answers[key] = found.answer
      else missing[key] = request
    }
    if (Object.keys(missing).length > 0) throw new AskSignal(missing)
    return answers as AnswersOf<T>
  }

  /** Await style: a form elicitation (or URL mode with `mode: 'url'`). Keys are positional unless given. */
  elicit(
    params: Omit<ElicitFormParams, 'mode'> | ElicitUrlParams,
    options?: { key?: string },
  ): Promise<ElicitationAnswer> {
    const request = 'url' in params ? elicitUrl(params) : elicitForm(params)
    return this.ask(options?.key ?? this.round.nextKey(), request) as Promise<ElicitationAnswer>
  }

  /** Await style: an LLM completion from the client (sampling, deprecated by SEP-2577). */
  sample(params: CreateMessageParams, options?: { key?: string }): Promise<SamplingAnswer> {
    return this.ask(options?.key ?? this.round.nextKey(), sampling(params)) as Promise<SamplingAnswer>
  }

  /** Await style: the client's roots (deprecated by SEP-2577). */
  roots(options?: { key?: string }): Promise<RootsAnswer> {
    return this.ask(options?.key ?? this.round.nextKey(), listRoots()) as Promise<RootsAnswer>
  }

  /**
   * Handshake era: ends the HTTP response now while the work goes on; the client reconnects
   * with `Last-Event-ID` and receives the rest. Does nothing on 2026-07-28, where closing a
   * stream would cancel the request.
   */
  closeStream(): void {
    if (this.era === 'legacy') this.exchange.closeStream?.()
  }

  /** @internal called once the response is on its way: nothing more may be sent for it. */
  finish(): void {
    this.finished = true
  }
}
