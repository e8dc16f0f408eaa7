/**
 * @module dev-tap
 * What the development console shows, published on the `tessera:dev` diagnostics channel as it
 * happens: each HTTP request (era, method, target, caller, status, duration, JSON-RPC error), the
 * rounds of a multi round-trip call as the server sees them (the sealed state's round, questions
 * and expiry, which the client cannot read), requestState refusals with their real reason, the
 * single-use record an answer claimed and what it keeps, requests a rate limit refused (and which
 * limit), and listen streams opening and closing.
 *
 * It is a subscriber of the server's observer that wants nothing while nobody subscribes to the
 * channel (one property of it), so nothing is built or published then. Only the console subscribes,
 * and only in development. A record is named by a digest of its nonce, never by the nonce itself,
 * and a session by a digest of its id.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { channel } from 'node:diagnostics_channel'
import { sha256Base64url } from '#crypto'
import type { ExchangeWatch, RateLimitScope, Step, StepEvent, Subscriber } from './observer.ts'

/**
 * The `node:diagnostics_channel` every `DevEvent` is published on. The development console
 * subscribes to it; while nobody does, nothing is built or published.
 */
export const DEV_CHANNEL = 'tessera:dev'
const tap = channel(DEV_CHANNEL)

/** One HTTP request as the console shows it; filled in as the request goes through the layers. */
export interface DevRequest {
  id: number
  /** Epoch milliseconds. */
  at: number
  httpMethod: string
  path: string
  era?: 'modern' | 'handshake'
  method?: string
  /** The tool or prompt name, or the resource URI. */
  target?: string
  subject?: string
  status?: number
  ms?: number
  error?: { code: number; message: string }
}

/**
 * One event on `DEV_CHANNEL`, told apart by `type`: an HTTP request as it starts and as it ends,
 * a round of a multi round-trip call, a requestState refused (with its real reason), a rate limit's
 * refusal, a single-use record, a listen stream, a task, or a handshake session opening or ending.
 */
export type DevEvent =
  | { type: 'request'; request: DevRequest }
  | { type: 'request-end'; request: DevRequest }
  | {
      type: 'round'
      request: number | undefined
      /** The state this request answered, by record name; absent on a call's first request. */
      answered?: { record: string; round: number; expiresAt: number; questions: string[] }
      /**
       * The state this request's answer carries, when it asks (again): what is sealed in it, read
       * on the server's side (the answers of earlier rounds it carries, by question key).
       */
      asked?: {
        record: string
        round: number
        expiresAt: number
        questions: string[]
        carried: Array<{ key: string; answer: unknown }>
      }
      /** What each question's answer did: accept, decline or cancel (elicitations), or answered. */
      actions?: Record<string, string>
    }
  | { type: 'state-refused'; request: number | undefined; reason: string; method: string }
  /** A rate limit refused the request: which one, as the refusal names it, and when to retry. */
  | {
      type: 'rate-limited'
      request: number | undefined
      scope: RateLimitScope
      limit: string
      retryAfterMs: number
    }
  | {
      type: 'single-use'
      request: number | undefined
      record: string
      what: string
      status: 'executed' | 'replayed' | 'in_progress' | 'stale'
      /** The outcome the record keeps and replays to every copy of the answer. */
      outcome?: string
    }
  | { type: 'listen-stream'; request: number | undefined; open: boolean }
  | {
      type: 'task'
      request: number | undefined
      taskId: string
      status: string
      statusMessage?: string
    }
  /** A handshake-era session opened or ended; named by a digest of its id. */
  | { type: 'session'; request: number | undefined; session: string; open: boolean }

const requests = new AsyncLocalStorage<DevRequest>()
let nextId = 1

/** The steps the console shows. */
const SHOWN: ReadonlySet<Step> = new Set<Step>([
  'exchange',
  'routed',
  'error-sent',
  'round-answered',
  'asked',
  'state-refused',
  'rate-limited',
  'single-use',
  'listen-stream',
  'task',
  'session',
])

/** Listen streams open now, with the request that opened them, for the event of their closing. */
const openStreams = new WeakMap<object, number | undefined>()

/**
 * The development console's subscriber: the same for every server of the process, since the
 * console watches the process. It wants a step only while the console subscribes to `DEV_CHANNEL`.
 */
export const devSubscriber: Subscriber = {
  steps: SHOWN,
  wants: () => tap.hasSubscribers,
  on: (event) => {
    const shown = devEventOf(event, requests.getStore())
    if (shown !== undefined) tap.publish(shown)
  },
  exchange: (httpMethod, path) => watchExchange(httpMethod, path),
}

/** A new request the console sees, published now and again when it ends. */
function watchExchange(httpMethod: string, path: string): ExchangeWatch {
  const request: DevRequest = { id: nextId++, at: Date.now(), httpMethod, path }
  const started = performance.now()
  tap.publish({ type: 'request', request } satisfies DevEvent)
  return {
    run: (work) => requests.run(request, work),
    ended: (status) => {
      request.status = status
      request.ms = performance.now() - started
      tap.publish({ type: 'request-end', request } satisfies DevEvent)
    },
  }
}

/** What the console shows of `event`, or undefined when it only fills in the request's record. */
function devEventOf(event: StepEvent, current: DevRequest | undefined): DevEvent | undefined {
  const request = current?.id
  switch (event.step) {
    case 'routed':
      if (current !== undefined) describe(current, event)
      return undefined
    case 'error-sent':
      if (current !== undefined) current.error = { code: event.code, message: event.message }
      return undefined
    case 'round-answered':
      return { type: 'round', request, answered: answeredRound(event), actions: actionsOf(event.answers) }
    case 'asked':
      return { type: 'round', request, asked: askedRound(event) }
    case 'state-refused':
      return { type: 'state-refused', request, reason: event.reason, method: event.method }
    case 'rate-limited':
      return {
        type: 'rate-limited',
        request,
        scope: event.scope,
        limit: event.limit,
        retryAfterMs: event.retryAfterMs,
      }
    case 'single-use':
      return {
        type: 'single-use',
        request,
        record: recordName(event.nonce),
        what: event.what,
        status: event.status,
        ...(event.outcome === undefined ? {} : { outcome: event.outcome }),
      }
    case 'listen-stream':
      return {
        type: 'listen-stream',
        request: streamRequest(event.stream, event.open, request),
        open: event.open,
      }
    case 'task':
      return {
        type: 'task',
        request,
        taskId: event.taskId,
        status: event.status,
        ...(event.statusMessage ? { statusMessage: event.statusMessage } : {}),
      }
    case 'session':
      return { type: 'session', request, session: sessionName(event.sessionId), open: event.open }
    default:
      return undefined
  }
}

/** What the console lists a parsed request as: its era, method, target and caller. */
function describe(request: DevRequest, routed: Extract<StepEvent, { step: 'routed' }>): void {
  request.method = routed.method
  if (routed.era !== undefined) request.era = routed.era
  if (routed.target !== undefined) request.target = routed.target.slice(0, 256)
  if (routed.subject !== undefined) request.subject = routed.subject
}

function answeredRound(event: Extract<StepEvent, { step: 'round-answered' }>) {
  return {
    record: recordName(event.nonce),
    round: event.round,
    expiresAt: event.expiresAt,
    questions: [...event.questions],
  }
}

function askedRound(event: Extract<StepEvent, { step: 'asked' }>) {
  return {
    record: recordName(event.nonce),
    round: event.round,
    expiresAt: event.expiresAt,
    questions: [...event.questions],
    carried: event.carried.map(({ key, answer }) => ({ key, answer })),
  }
}

/** What each answer did: accept, decline or cancel (elicitations), or answered. */
function actionsOf(answers: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  const actions: Record<string, string> = {}
  for (const [key, answer] of Object.entries(answers ?? {})) {
    const action = (answer as { action?: unknown } | null)?.action
    actions[key] = typeof action === 'string' ? action : 'answered'
  }
  return actions
}

/** The request a listen stream belongs to: the one serving it as it opens, kept until it closes. */
function streamRequest(stream: object, open: boolean, current: number | undefined): number | undefined {
  if (open) {
    openStreams.set(stream, current)
    return current
  }
  const opener = openStreams.get(stream)
  openStreams.delete(stream)
  return opener
}

/** The name the console shows for a handshake session (its id is the client's credential). */
export function sessionName(sessionId: string): string {
  return sha256Base64url(`tessera/dev-console/session\0${sessionId}`).slice(0, 12)
}

/** The name the console shows for the record of a state's nonce. */
export function recordName(nonce: string): string {
  return sha256Base64url(`tessera/dev-console\0${nonce}`).slice(0, 12)
}
