/**
 * @module traffic
 * The console's model of what the server published: requests, and the multi round-trip calls
 * they belong to. A request that answers a state joins the call whose request sealed that state
 * (the records are named alike on both sides), so every round of one call, and every replay of
 * an answer, is threaded under one row.
 */
import type { DevEvent, DevRequest } from '@tessera/core/http'

type RoundEvent = Extract<DevEvent, { type: 'round' }>
type SingleUseEvent = Extract<DevEvent, { type: 'single-use' }>
type RateLimitedEvent = Extract<DevEvent, { type: 'rate-limited' }>

export interface RequestView {
  request: DevRequest
  asked?: NonNullable<RoundEvent['asked']>
  answered?: NonNullable<RoundEvent['answered']>
  actions?: Record<string, string>
  singleUse: SingleUseEvent[]
  refusals: string[]
  /** The rate limit that refused it. */
  limited?: Pick<RateLimitedEvent, 'limit' | 'retryAfterMs'>
}

export interface CallView {
  /** The id of its first request. */
  id: number
  requests: RequestView[]
}

export interface Traffic {
  calls: CallView[]
  openStreams: number
  /** Handshake-era sessions open now. */
  openSessions: number
  /** Every task seen, by id, with its latest status. */
  tasks: Map<string, { status: string; statusMessage?: string; request?: number }>
  /** Every rate limit that refused a request, as the refusal names it, with how many it refused. */
  rateLimits: Map<string, { scope: string; refused: number }>
}

export function emptyTraffic(): Traffic {
  return { calls: [], openStreams: 0, openSessions: 0, tasks: new Map(), rateLimits: new Map() }
}

/** Folds one event into the model (a new object, so a view re-renders). */
export function apply(traffic: Traffic, event: DevEvent, index: TrafficIndex): Traffic {
  switch (event.type) {
    case 'request': {
      const view: RequestView = { request: event.request, singleUse: [], refusals: [] }
      index.requests.set(event.request.id, view)
      const call: CallView = { id: event.request.id, requests: [view] }
      index.callOf.set(event.request.id, call)
      return { ...traffic, calls: [...traffic.calls, call] }
    }
    case 'request-end': {
      const view = index.requests.get(event.request.id)
      if (view !== undefined) view.request = event.request
      return { ...traffic }
    }
    case 'round': {
      const view = event.request === undefined ? undefined : index.requests.get(event.request)
      if (view === undefined) return traffic
      if (event.asked) {
        view.asked = event.asked
        index.callByRecord.set(event.asked.record, index.callOf.get(view.request.id)!)
      }
      if (event.answered) {
        view.answered = event.answered
        view.actions = event.actions
        return thread(traffic, view, index.callByRecord.get(event.answered.record), index)
      }
      return { ...traffic }
    }
    case 'single-use': {
      const view = event.request === undefined ? undefined : index.requests.get(event.request)
      view?.singleUse.push(event)
      return { ...traffic }
    }
    case 'state-refused': {
      const view = event.request === undefined ? undefined : index.requests.get(event.request)
      view?.refusals.push(event.reason)
      return { ...traffic }
    }
    case 'rate-limited': {
      const view = event.request === undefined ? undefined : index.requests.get(event.request)
      if (view !== undefined) view.limited = { limit: event.limit, retryAfterMs: event.retryAfterMs }
      const rateLimits = new Map(traffic.rateLimits)
      const refused = (traffic.rateLimits.get(event.limit)?.refused ?? 0) + 1
      rateLimits.set(event.limit, { scope: event.scope, refused })
      return { ...traffic, rateLimits }
    }
    case 'listen-stream':
      return { ...traffic, openStreams: Math.max(0, traffic.openStreams + (event.open ? 1 : -1)) }
    case 'session':
      return { ...traffic, openSessions: Math.max(0, traffic.openSessions + (event.open ? 1 : -1)) }
    case 'task': {
      const tasks = new Map(traffic.tasks)
      const first = traffic.tasks.get(event.taskId)?.request ?? event.request
      tasks.set(event.taskId, { status: event.status, statusMessage: event.statusMessage, request: first })
      return { ...traffic, tasks }
    }
  }
}

/** Moves a request that answered a state under the call that sealed it. */
function thread(
  traffic: Traffic,
  view: RequestView,
  call: CallView | undefined,
  index: TrafficIndex,
): Traffic {
  const own = index.callOf.get(view.request.id)
  if (call === undefined || own === undefined || call === own) return { ...traffic }
  call.requests.push(view)
  index.callOf.set(view.request.id, call)
  return { ...traffic, calls: traffic.calls.filter((c) => c !== own) }
}

export class TrafficIndex {
  readonly requests = new Map<number, RequestView>()
  readonly callOf = new Map<number, CallView>()
  readonly callByRecord = new Map<string, CallView>()
}

/** What a call's single-use record says now: done once executed, replayed once a copy found it done. */
export function recordState(call: CallView): { record: string; state: string; outcome?: string } | undefined {
  let latest: { record: string; state: string; outcome?: string } | undefined
  for (const view of call.requests) {
    for (const event of view.singleUse) {
      const state = event.status === 'executed' ? 'done' : event.status
      latest = {
        record: event.record,
        state: latest?.state === 'done' && state === 'replayed' ? 'done, replayed' : state,
        outcome: event.outcome,
      }
    }
  }
  return latest
}
