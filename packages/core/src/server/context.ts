/**
 * @module context
 * The `ctx` every handler receives: who is asking and with what capabilities, the cancellation
 * signal, progress and log notifications for this request, and asking the client for input.
 * One object per request, its methods on the prototype and its state in private fields.
 */

import { type Logger, scopedLogger } from '../observation/logger.ts'
import { traceIds } from '../observation/telemetry/telemetry.ts'
import type { JsonObject, JsonRpcId } from '../protocol/jsonrpc/message.ts'
import type { ClientCapabilities } from '../protocol/modern/capabilities.ts'
import type { InputRequest } from '../protocol/modern/input-requests.ts'
import type { Implementation } from '../protocol/modern/request-meta.ts'
import { type LoggingLevel, passesLevel } from '../protocol/modern/vocabulary.ts'
import type { AuthInfo } from '../security/request-state/binding.ts'
import type { Exchange } from './exchange.ts'
import type { AnswerOf } from './mrtr/answers.ts'
import { AskSignal } from './mrtr/ask-signal.ts'
import { assertInputRequest } from './mrtr/input-requests.ts'
import type { RecordedAnswer, RoundState } from './mrtr/round-state.ts'
import type { TaskHandle } from './tasks/task-handle.ts'

/** `modern`: 2026-07-28, stateless. `handshake`: 2025-11-25, in a session opened by `initialize`. */
export type Era = 'modern' | 'handshake'

/** What `ctx.askAll(requests)` resolves with: under each key, the answer to its question (`AnswerOf`). */
export type AnswersOf<T extends Record<string, InputRequest>> = { [K in keyof T]: AnswerOf<T[K]> }

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
  /** The server's logger, which `ctx.logger` scopes to this request. */
  logger: Logger
  /** What the request addresses, for its log lines (a tool or prompt name, a resource URI). */
  target: string | undefined
  /** The task this run belongs to, when it runs as one. */
  task?: TaskHandle
  /**
   * Present when this call may still become a task: turns it into one, carrying the answers
   * gathered so far, and gives the task's handle and exchange (undefined: it stays synchronous).
   */
  startTask?: (answers: RecordedAnswer[]) => Promise<{ handle: TaskHandle; exchange: Exchange } | undefined>
  /** The key of the accepted answer a single-use call acts on (see `ctx.request.idempotencyKey`). */
  idempotencyKey?: string
  /** Aborts when the call's time is up (`limits.timeoutMs`); a task is not bound by it. */
  deadline?: AbortSignal
}

/** The request a handler serves. */
export interface HandledRequest {
  /** The JSON-RPC id the client gave it. */
  readonly id: JsonRpcId
  readonly method: string
  readonly era: Era
  /** The protocol version it was made under (from its `_meta`, or its session's). */
  readonly protocolVersion: string
  /**
   * For a single-use tool answering a round: a key that is the same for every copy of this
   * answer, on every worker and after a restart, and different for any other answer (43
   * base64url characters, derived from the sealed state's nonce; it reveals nothing of it).
   * Store it in the same transaction as the side effect: a handler run again after its worker
   * died between committing and recording the outcome finds its own earlier work under the
   * key, and answers with that outcome instead of acting twice. Undefined for every other call.
   */
  readonly idempotencyKey: string | undefined
}

/** The client that sent a request, as it describes itself. */
export interface RequestingClient {
  /** What it can answer when asked (elicitation, sampling, roots) and the extensions it declared. */
  readonly capabilities: ClientCapabilities
  /**
   * Self-reported by the client: display and logging only, never a security decision. Checked
   * before the handler runs: `name`, `version` and an optional `title`, each a string of at most
   * 256 characters on one line (no control characters); nothing else the client sent is kept.
   */
  readonly info: Implementation | undefined
}

/**
 * What every handler receives as `ctx`: the request and its client, the caller (`auth`), the
 * cancellation signal, a logger, progress and log notifications, and asking the client for
 * input (`ask`, `askAll`), which works alike in both protocol revisions.
 *
 * @example
 * ```ts
 * import { createServer, elicitForm } from '@tessera/core'
 * import { z } from 'zod'
 *
 * const Confirmation = z.object({ confirm: z.boolean() })
 * const app = createServer({ name: 'ops', version: '1.0.0' })
 * app.tool('deploy', { description: 'Deploys a version', input: z.object({ version: z.string() }) },
 *   async ({ version }, ctx) => {
 *     const answer = await ctx.ask('confirm', elicitForm({ message: `Deploy ${version}?`, schema: Confirmation }))
 *     if (answer.action !== 'accept' || !answer.content.confirm) return 'Not deployed.'
 *     ctx.progress(1, 2, 'deploying')
 *     ctx.logger.info({ version, client: ctx.client.info?.name }, 'deploying')
 *     return `Deployed ${version}.`
 *   })
 * ```
 */
export class RequestContext {
  readonly #init: ContextInit
  #request: HandledRequest | undefined
  #client: RequestingClient | undefined
  #exchange: Exchange
  #task: TaskHandle | undefined
  #startTask: ContextInit['startTask']
  readonly #baseLogger: Logger
  readonly #target: string | undefined
  #logger: Logger | undefined
  readonly #logLevel: LoggingLevel | undefined
  readonly #progressToken: string | number | undefined
  readonly #round: RoundState
  #lastProgress = Number.NEGATIVE_INFINITY
  /** The exchange's signal and the deadline's, once read. */
  #bounded: AbortSignal | undefined

  constructor(init: ContextInit, round: RoundState) {
    this.#init = init
    this.#exchange = init.exchange
    this.#task = init.task
    this.#startTask = init.startTask
    this.#baseLogger = init.logger
    this.#target = init.target
    this.#logLevel = init.logLevel
    this.#progressToken = init.progressToken
    this.#round = round
  }

  /** The request this handler serves (built on first read). */
  get request(): HandledRequest {
    const init = this.#init
    this.#request ??= {
      id: init.requestId,
      method: init.method,
      era: init.era,
      protocolVersion: init.protocolVersion,
      idempotencyKey: init.idempotencyKey,
    }
    return this.#request
  }

  /** The client that sent it (built on first read). */
  get client(): RequestingClient {
    this.#client ??= { capabilities: this.#init.clientCapabilities, info: this.#init.clientInfo }
    return this.#client
  }

  /** The authenticated caller, when the transport authenticated one. */
  get auth(): AuthInfo | undefined {
    return this.#exchange.auth
  }

  /**
   * Aborts when the client disconnects (2026-07-28 over HTTP) or cancels the request, or when the
   * call's time is up (`limits.timeoutMs`); in a task, when the task is cancelled or its worker
   * lost its hold on it.
   */
  get signal(): AbortSignal {
    const own = this.#exchange.signal
    const deadline = this.#init.deadline
    if (deadline === undefined || this.#task !== undefined) return own
    this.#bounded ??= AbortSignal.any([own, deadline])
    return this.#bounded
  }

  /**
   * The server's logger for this request: every line carries the method, the target, the trace
   * and span ids (with OpenTelemetry) and the task id (in a task). For the operator, never the
   * client; `ctx.log` is what sends a message to the client.
   */
  get logger(): Logger {
    if (this.#logger !== undefined) return this.#logger
    const bindings: Record<string, unknown> = { method: this.#init.method }
    if (this.#target !== undefined) bindings.target = this.#target
    const ids = traceIds()
    if (ids !== undefined) {
      bindings.trace_id = ids.traceId
      bindings.span_id = ids.spanId
    }
    if (this.#task !== undefined) bindings.task_id = this.#task.id
    this.#logger = scopedLogger(this.#baseLogger, bindings)
    return this.#logger
  }

  /** The task this call runs as (status messages, progress, cancellation); undefined when synchronous. */
  get task(): TaskHandle | undefined {
    return this.#task
  }

  /**
   * For a tool whose task starts in the handler (`task: { start: 'handler' }`): from here on
   * the call runs as a task, and the client gets its `CreateTaskResult` now while the work goes
   * on. Put the questions that decide whether to act above this line: they are answered in
   * ordinary rounds first. Resolves with the task's handle, or undefined when this call stays
   * synchronous (a client without the tasks extension, the handshake era, an unowned caller);
   * inside a task it resolves with the running task's handle.
   */
  async startTask(): Promise<TaskHandle | undefined> {
    if (this.#task !== undefined || this.#startTask === undefined) return this.#task
    const start = this.#startTask
    this.#startTask = undefined
    const started = await start(this.#round.carried())
    if (started === undefined) return undefined
    this.#task = started.handle
    this.#exchange = started.exchange
    return started.handle
  }

  /**
   * Reports progress when the client asked for it (`_meta.progressToken`); otherwise a no-op.
   * Values that do not increase are dropped: the spec requires strictly increasing progress.
   */
  progress(progress: number, total?: number, message?: string): void {
    if (this.#task !== undefined) return this.#task.progress(progress, total, message)
    if (this.#progressToken === undefined || !(progress > this.#lastProgress)) return
    this.#lastProgress = progress
    const params: JsonObject = { progressToken: this.#progressToken, progress }
    if (total !== undefined) params.total = total
    if (message !== undefined) params.message = message
    this.#exchange.send({ jsonrpc: '2.0', method: 'notifications/progress', params })
  }

  /**
   * Sends `notifications/message` when this request opted in at or below `level`
   * (2026-07-28: `_meta` logLevel; handshake era: the session's `logging/setLevel`).
   * Never put secrets or personal data in `data`.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    if (this.#logLevel === undefined || !passesLevel(level, this.#logLevel)) return
    const params: JsonObject = { level, data }
    if (logger !== undefined) params.logger = logger
    this.#exchange.send({ jsonrpc: '2.0', method: 'notifications/message', params })
  }

  // On 2026-07-28 an ask without an answer yet ends the round; the client answers by calling again
  // and the handler runs again FROM THE TOP, finding earlier answers under their keys. Everything
  // above the last ask must be safe to repeat: put side effects below it. In the handshake era the
  // ask is a real request to the client, and the handler is re-entered the same way.

  /**
   * Asks the client one question under `key` (unique within this handler) and resolves with its
   * validated answer: an elicitation built from a zod schema gives content typed by that schema.
   * @example
   * ```ts
   * import { createServer, elicitForm } from '@tessera/core'
   * import { z } from 'zod'
   *
   * const proceed = elicitForm({ message: 'Proceed?', schema: z.object({ ok: z.boolean() }) })
   * createServer({ name: 'ops', version: '1.0.0' }).tool('purge', { description: 'Purges the cache' },
   *   async (_args, ctx) => {
   *     const answer = await ctx.ask('confirm', proceed)
   *     if (answer.action !== 'accept' || !answer.content.ok) return 'Nothing was done.'
   *     return 'Purged.'
   *   })
   * ```
   */
  async ask<R extends InputRequest>(key: string, request: R): Promise<AnswerOf<R>> {
    const answers = await this.askAll({ [key]: request } as Record<string, R>)
    return answers[key] as AnswerOf<R>
  }

  /** Asks several questions in one round; resolves once every one has an answer. */
  async askAll<T extends Record<string, InputRequest>>(requests: T): Promise<AnswersOf<T>> {
    const answers: Record<string, unknown> = {}
    let missing: Record<string, InputRequest> | undefined
    for (const [key, request] of Object.entries(requests)) {
      assertInputRequest(key, request)
      const found = this.#round.lookup(key, request)
      if (found.found) {
        answers[key] = found.answer
      } else {
        missing ??= {}
        missing[key] = request
      }
    }
    if (missing !== undefined) {
      const signal = new AskSignal(missing)
      this.#round.pendingAsk = signal
      throw signal
    }
    return answers as AnswersOf<T>
  }

  /**
   * Handshake era over HTTP: ends the HTTP response now while the work goes on; the client
   * reconnects with `Last-Event-ID` and receives the rest. Does nothing on 2026-07-28, where
   * closing a stream would cancel the request.
   */
  closeStream(): void {
    if (this.#init.era === 'handshake') this.#exchange.closeStream?.()
  }
}
