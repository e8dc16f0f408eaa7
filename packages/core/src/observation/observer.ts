/**
 * @module observer
 * The one seam through which a server tells what happens to a request, in either era and on any
 * transport: the request as received and as answered (`request`), the HTTP exchange it came in
 * (`exchange`), the phases that take time (argument validation, sealing and opening a state, the
 * single-use claim, the handler, a question sent to the client), and the steps between them
 * (`announce`: a state opened or refused, a round answered or asked, the single-use outcome, a
 * task transition, a listen stream or session opening and closing, a store call, an internal
 * failure). The logger, OpenTelemetry and the development console are its subscribers; a
 * feature announces a step once and each of them takes what it shows.
 *
 * Nothing is built while nobody listens: a site asks `wants(step)` before it builds what the step
 * carries, and each subscriber answers from what it can show now (a console attached, a tracer
 * registered, a logger that logs that step). Web-standard code only: a subscriber may use what
 * its runtime offers (the console's taps use `node:diagnostics_channel`), the seam uses nothing.
 */
import type { JsonObject } from '../protocol/jsonrpc/message.ts'
import type { HeaderView } from '../protocol/modern/header-view.ts'
import type { CarriedSpan } from './carried-span.ts'

/** A request as it reached the server, before anything was checked. */
export interface ReceivedRequest {
  readonly method: string
  readonly requestId: string | number
  readonly params: JsonObject | undefined
  /** The HTTP request's headers (the caller's trace context may be there); none on stdio. */
  readonly headers: HeaderView | undefined
  /** The handshake-era session it runs in. */
  readonly sessionId?: string
}

/**
 * Which rate limit a request met: its caller's, its caller's for its method, its caller's for the
 * tool it calls, or the whole server's.
 */
export type RateLimitScope = 'caller' | 'method' | 'tool' | 'server'

/** One step of a request, told apart by `step`. */
export type StepEvent =
  /** A requestState opened under the key `keyId`. */
  | { readonly step: 'state-opened'; readonly keyId: string }
  /** A requestState was refused: its real reason, which the client never sees. */
  | { readonly step: 'state-refused'; readonly reason: string; readonly method: string }
  /** This request answers round `round` of a multi round-trip call, with `answers` by question key. */
  | {
      readonly step: 'round-answered'
      readonly nonce: string
      readonly expiresAt: number
      readonly round: number
      readonly questions: readonly string[]
      readonly answers: Readonly<Record<string, unknown>> | undefined
      /** What the call's first round left for linking its rounds (`Observer.link`). */
      readonly link: CarriedSpan | undefined
    }
  /** This request asks (again): the state it answers with, as sealed. */
  | {
      readonly step: 'asked'
      readonly nonce: string
      readonly expiresAt: number
      readonly round: number
      readonly questions: readonly string[]
      readonly carried: ReadonlyArray<{ readonly key: string; readonly answer: unknown }>
    }
  /** What the single-use guard decided for an answer, and the outcome its record keeps. */
  | {
      readonly step: 'single-use'
      readonly nonce: string
      readonly what: string
      readonly status: 'executed' | 'replayed' | 'in_progress' | 'stale'
      readonly outcome?: string
    }
  /** Something the single-use guard met besides a plain first run (a duplicate, a lost lease, a store error). */
  | { readonly step: 'guard'; readonly type: string; readonly detail?: string }
  /** One call to a store: how long it took and whether it succeeded. */
  | {
      readonly step: 'store-call'
      readonly store: 'replay' | 'tasks' | 'rateLimits'
      readonly operation: string
      readonly ms: number
      readonly ok: boolean
    }
  /** A request was refused by a rate limit: which one, what it limits, and when to try again. */
  | {
      readonly step: 'rate-limited'
      readonly scope: RateLimitScope
      /** The limit as the refusal names it (`every caller is limited to 60 per 60000 ms`). */
      readonly limit: string
      readonly method: string
      /** The tool whose own limit refused the call. */
      readonly tool?: string
      readonly retryAfterMs: number
    }
  /** A task was written: created, or moved on to `status`. */
  | {
      readonly step: 'task'
      readonly taskId: string
      readonly tool: string
      readonly status: string
      readonly statusMessage?: string
      readonly created: boolean
    }
  /** A `subscriptions/listen` stream opened or closed; `stream` is the same object both times. */
  | {
      readonly step: 'listen-stream'
      readonly subscriptionId: string | number
      readonly stream: object
      readonly open: boolean
    }
  /** A handshake-era session opened or ended. */
  | { readonly step: 'session'; readonly sessionId: string; readonly open: boolean }
  /** A value a tool opted in to trace: its validated arguments or its result. */
  | { readonly step: 'traced-value'; readonly key: 'arguments' | 'result'; readonly value: unknown }
  /** The HTTP request was parsed and classified: what the console lists it as. */
  | {
      readonly step: 'routed'
      readonly era: 'modern' | 'handshake' | undefined
      readonly method: string
      readonly target: string | undefined
      readonly subject: string | undefined
    }
  /** The HTTP answer carried this JSON-RPC error. */
  | { readonly step: 'error-sent'; readonly code: number; readonly message: string }
  /** Serving a request failed with something no handler meant: a server fault. */
  | { readonly step: 'failed'; readonly method: string; readonly error: unknown }

/** The name of a step. */
export type Step = StepEvent['step'] | 'exchange'

/** The phases of a request that take time; a subscriber may measure each (a child span). */
export type Phase =
  | 'validate arguments'
  | 'requestState open'
  | 'requestState seal'
  | 'single-use guard'
  | 'handler'
  /** A request this server sends its client (a handshake-era question), by its method. */
  | { readonly clientRequest: string }

/** What a subscriber keeps of one request from its start to its answer. */
export interface RequestWatch {
  /** Runs the request's serving inside what the subscriber keeps (its span, as the active one). */
  run<T>(work: () => Promise<T>): Promise<T>
  /** A JSON-RPC error answered it. */
  failed(code: number, message: string): void
  /** What kind of answer it was: `input_required`, `task`, a tool error. */
  answered(resultType: string | undefined, isError: boolean): void
  /** The answer is out. */
  end(): void
}

/** What a subscriber keeps of one HTTP exchange. */
export interface ExchangeWatch {
  run<T>(work: () => T): T
  /** The response ended with `status`. */
  ended(status: number): void
}

/** One observer of requests: the logger, OpenTelemetry, the development console. */
export interface Subscriber {
  /** Every step it may ever take: it is asked about no other. */
  readonly steps: ReadonlySet<Step>
  /** Whether it takes `step` (one of `steps`) now; asked before the step is built, so it must be cheap. */
  wants(step: Step): boolean
  on(event: StepEvent): void
  /** Its watch of a request, or undefined when it shows nothing of this one. */
  request?(received: ReceivedRequest): RequestWatch | undefined
  /** Its watch of an HTTP exchange (`httpMethod` and path), asked only when it `wants('exchange')`. */
  exchange?(httpMethod: string, path: string): ExchangeWatch | undefined
  /** Runs `work` as `phase` of the current request. */
  phase?<T>(phase: Phase, work: () => T): T
  /** What a state sealed now carries so the call's later rounds can be linked to this request. */
  link?(): CarriedSpan | undefined
}

const IDLE_REQUEST: RequestWatch = {
  run: (work) => work(),
  failed() {},
  answered() {},
  end() {},
}

/** Many watches of one request, as one. */
class RequestWatches implements RequestWatch {
  readonly #watches: readonly RequestWatch[]

  constructor(watches: readonly RequestWatch[]) {
    this.#watches = watches
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.#watches.reduceRight<() => Promise<T>>((inner, watch) => () => watch.run(inner), work)()
  }

  failed(code: number, message: string): void {
    for (const watch of this.#watches) watch.failed(code, message)
  }

  answered(resultType: string | undefined, isError: boolean): void {
    for (const watch of this.#watches) watch.answered(resultType, isError)
  }

  end(): void {
    for (const watch of this.#watches) watch.end()
  }
}

/**
 * A server's subscribers, behind the calls its code makes. A subscriber that throws is ignored:
 * observing a request never changes what the request does.
 */
export class Observer {
  readonly #subscribers: readonly Subscriber[]
  /** By step, the subscribers that may take it: a step nobody may take costs one lookup. */
  readonly #interested: ReadonlyMap<Step, readonly Subscriber[]>
  readonly #watchers: readonly Subscriber[]
  readonly #phased: readonly Subscriber[]

  constructor(subscribers: readonly Subscriber[]) {
    this.#subscribers = subscribers
    const interested = new Map<Step, Subscriber[]>()
    for (const subscriber of subscribers) {
      for (const step of subscriber.steps) interested.set(step, [...(interested.get(step) ?? []), subscriber])
    }
    this.#interested = interested
    this.#watchers = subscribers.filter((s) => s.request !== undefined)
    this.#phased = subscribers.filter((s) => s.phase !== undefined)
  }

  /** Whether any subscriber takes `step` now: ask before building the step. */
  wants(step: Step): boolean {
    const interested = this.#interested.get(step)
    if (interested === undefined) return false
    for (const subscriber of interested) if (subscriber.wants(step)) return true
    return false
  }

  /** Tells every subscriber that takes it that `event` happened. */
  announce(event: StepEvent): void {
    const interested = this.#interested.get(event.step)
    if (interested === undefined) return
    for (const subscriber of interested) {
      if (!subscriber.wants(event.step)) continue
      try {
        subscriber.on(event)
      } catch {}
    }
  }

  /** The watch of a request from its start to its answer; one that does nothing when nobody watches. */
  request(received: ReceivedRequest): RequestWatch {
    const watchers = this.#watchers
    if (watchers.length === 1) return watchers[0]!.request?.(received) ?? IDLE_REQUEST
    const watches: RequestWatch[] = []
    for (const subscriber of watchers) {
      const watch = subscriber.request?.(received)
      if (watch !== undefined) watches.push(watch)
    }
    if (watches.length === 0) return IDLE_REQUEST
    return watches.length === 1 ? watches[0]! : new RequestWatches(watches)
  }

  /** Runs `work` as one HTTP exchange; ask `wants('exchange')` first. */
  exchange<T>(httpMethod: string, path: string, work: (watch: ExchangeWatch | undefined) => T): T {
    for (const subscriber of this.#interested.get('exchange') ?? []) {
      if (!subscriber.wants('exchange')) continue
      const watch = subscriber.exchange?.(httpMethod, path)
      if (watch !== undefined) return watch.run(() => work(watch))
    }
    return work(undefined)
  }

  /** Runs `work` as `phase` of the current request. */
  phase<T>(phase: Phase, work: () => T): T {
    const phased = this.#phased
    if (phased.length === 0) return work()
    if (phased.length === 1) return phased[0]!.phase!(phase, work)
    return phased.reduceRight<() => T>((inner, subscriber) => () => subscriber.phase!(phase, inner), work)()
  }

  /** What a state sealed now carries to link the call's later rounds to this request. */
  link(): CarriedSpan | undefined {
    for (const subscriber of this.#subscribers) {
      const link = subscriber.link?.()
      if (link !== undefined) return link
    }
    return undefined
  }
}
