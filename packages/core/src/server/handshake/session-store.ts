/**
 * @module session-store
 * Sessions of the 2025-11-25 handshake era, behind a port so several instances can share them
 * (SQLite, Redis and PostgreSQL in the store packages). The in-memory default is bounded in count and expires idle
 * sessions, so a flood of `initialize` requests cannot grow it without limit.
 */
import { assertKnownOptions, type OptionNames } from '../../option-checks.ts'
import type { ClientCapabilities } from '../../protocol/modern/capabilities.ts'
import type { Implementation } from '../../protocol/modern/request-meta.ts'
import type { LoggingLevel } from '../../protocol/modern/vocabulary.ts'

/**
 * A session of the 2025-11-25 handshake era as a session store keeps it: what `initialize`
 * settled, the client's log level and subscriptions, and the principal that opened it.
 */
export interface SessionRecord {
  id: string
  protocolVersion: string
  clientCapabilities: ClientCapabilities
  clientInfo?: Implementation
  /** Set by `logging/setLevel`; no log messages before it. */
  logLevel?: LoggingLevel
  /** URIs from `resources/subscribe`. */
  subscriptions: string[]
  /** Digest of the authenticated principal that opened the session; checked on every request. */
  principal: string
  initialized: boolean
  createdAt: number
}

/**
 * One change to a live session. Changes are applied atomically by the store, never as a
 * read-modify-write by the caller: two requests of one session running at once (a subscribe and
 * a setLevel, say) must not overwrite each other.
 */
export type SessionChange =
  | { kind: 'initialized' }
  | { kind: 'log-level'; level: LoggingLevel }
  | { kind: 'subscribe'; uri: string }
  | { kind: 'unsubscribe'; uri: string }

/** Subscriptions kept per session at most. */
export const MAX_SUBSCRIPTIONS = 1000

/**
 * The port behind the sessions of the handshake era (the `sessions` of `Stores`), so every
 * instance serving the endpoint knows every session. The store applies each change atomically
 * (`apply`); the caller never reads, changes and writes back a session.
 */
export interface SessionStore {
  /** Stores a new session; false when the store is full. */
  create(session: SessionRecord): Promise<boolean>
  /** The live session, refreshing its idle expiry; undefined when unknown, ended or expired. */
  get(id: string): Promise<SessionRecord | undefined>
  /** Applies one change atomically; undefined when the session is gone (it is never brought back). */
  apply(id: string, change: SessionChange): Promise<SessionRecord | undefined>
  /** Ends the session (the client's DELETE); false when it was not there. */
  delete(id: string): Promise<boolean>
  /**
   * How many live sessions the store holds, on every instance that shares it: the
   * `tessera.handshake.sessions` gauge. Read only when metrics are collected; a store without it
   * reports no such gauge.
   */
  count?(): Promise<number>
  /** Releases what the store holds; the server calls it once, from `close()`. */
  close(): Promise<void>
}

/** The bounds and the clock of `memorySessionStore`. */
export interface MemorySessionStoreOptions {
  /** Sessions kept at most (default 10 000). */
  maxSessions?: number
  /** A session unused this long ends (default 30 minutes). */
  idleMs?: number
  /** The clock, in epoch milliseconds (default `Date.now`); tests fix it. */
  now?: () => number
}

const MEMORY_SESSION_OPTION_NAMES = {
  maxSessions: true,
  idleMs: true,
  now: true,
} as const satisfies OptionNames<MemorySessionStoreOptions>

/**
 * The session store of one process: bounded in count, with idle sessions ending (swept when it
 * is full), all lost on a restart. A server uses it when `stores.sessions` is not given.
 */
export function memorySessionStore(options?: MemorySessionStoreOptions): SessionStore {
  assertKnownOptions(options, MEMORY_SESSION_OPTION_NAMES, 'memorySessionStore')
  const max = options?.maxSessions ?? 10_000
  const idleMs = options?.idleMs ?? 30 * 60_000
  const now = options?.now ?? Date.now
  const sessions = new Map<string, { session: SessionRecord; seen: number }>()
  const sweep = () => {
    const limit = now() - idleMs
    for (const [id, entry] of sessions) if (entry.seen < limit) sessions.delete(id)
  }
  return {
    async create(session) {
      if (sessions.size >= max) sweep()
      if (sessions.size >= max) return false
      sessions.set(session.id, { session: structuredClone(session), seen: now() })
      return true
    },
    async get(id) {
      const entry = sessions.get(id)
      if (!entry) return undefined
      if (entry.seen < now() - idleMs) {
        sessions.delete(id)
        return undefined
      }
      entry.seen = now()
      return structuredClone(entry.session)
    },
    async apply(id, change) {
      const entry = sessions.get(id)
      if (!entry) return undefined
      applySessionChange(entry.session, change)
      return structuredClone(entry.session)
    },
    async delete(id) {
      return sessions.delete(id)
    },
    async count() {
      sweep()
      return sessions.size
    },
    async close() {
      sessions.clear()
    },
  }
}

/** The one definition of what each change does; stores that cannot run it in place mirror it. */
export function applySessionChange(session: SessionRecord, change: SessionChange): void {
  switch (change.kind) {
    case 'initialized':
      session.initialized = true
      return
    case 'log-level':
      session.logLevel = change.level
      return
    case 'subscribe':
      if (!session.subscriptions.includes(change.uri) && session.subscriptions.length < MAX_SUBSCRIPTIONS) {
        session.subscriptions.push(change.uri)
      }
      return
    case 'unsubscribe':
      session.subscriptions = session.subscriptions.filter((uri) => uri !== change.uri)
      return
  }
}
