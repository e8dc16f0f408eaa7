/**
 * @module dev-tap
 * What the development console shows, published on the `tessera:dev` diagnostics channel as it
 * happens: each HTTP request (era, method, target, caller, status, duration, JSON-RPC error), the
 * rounds of a multi round-trip call as the server sees them (the sealed state's round, questions
 * and expiry, which the client cannot read), requestState refusals with their real reason, the
 * single-use record an answer claimed and what it keeps, and listen streams opening and closing.
 *
 * Nothing is built or published while nobody subscribes: every publishing site first reads
 * `devTapOn()`, one property of the channel. Only the console subscribes, and only in development.
 * A record is named by a digest of its nonce, never by the nonce itself.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { channel } from 'node:diagnostics_channel'
import { sha256Base64url } from '../security/sha256.ts'

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
 * a round of a multi round-trip call, a requestState refused (with its real reason), a single-use
 * record, a listen stream, a task, or a handshake session opening or ending.
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

/** Whether anyone listens: the one check every publishing site makes first. */
export function devTapOn(): boolean {
  return tap.hasSubscribers
}

export function publishDev(event: DevEvent): void {
  if (tap.hasSubscribers) tap.publish(event)
}

/** Runs `handle` as a new request the console sees, published now and again when it ends. */
export function tapRequest<T>(httpMethod: string, path: string, handle: (request: DevRequest) => T): T {
  const request: DevRequest = { id: nextId++, at: Date.now(), httpMethod, path }
  publishDev({ type: 'request', request })
  return requests.run(request, handle, request)
}

/** The request being served, when the console watches. */
export function currentDevRequest(): DevRequest | undefined {
  return tap.hasSubscribers ? requests.getStore() : undefined
}

/** The name the console shows for a handshake session (its id is the client's credential). */
export function sessionName(sessionId: string): string {
  return sha256Base64url(`tessera/dev-console/session\0${sessionId}`).slice(0, 12)
}

/** The name the console shows for the record of a state's nonce. */
export function recordName(nonce: string): string {
  return sha256Base64url(`tessera/dev-console\0${nonce}`).slice(0, 12)
}
