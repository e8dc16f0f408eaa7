/**
 * @module classify
 * Which era an HTTP request belongs to, decided from the request alone. One endpoint serves
 * 2026-07-28 statelessly and 2025-11-25 with sessions. The rules, in the order `classifyRequest`
 * applies them (the first that applies decides):
 *
 * 1. GET opens, and DELETE ends, a handshake session's stream (405 without the handshake era).
 * 2. A POST without a JSON-RPC body is 405; a response the client sends belongs to a session.
 * 3. `initialize` without a 2026-07-28 claim opens a session (unsupported without the era).
 * 4. A request whose `_meta` claims 2026-07-28 is served that way: a dual-era client's probe
 *    never turns into a handshake session.
 * 5. A 2026-07-28 `MCP-Protocol-Version` without the `_meta` claim is a request missing its
 *    envelope; so is any request without a version header when the handshake era is off.
 * 6. Otherwise a request naming a session runs in it, a notification without one is accepted,
 *    and a request without one is refused for want of a session.
 */
import type { InboundMessage } from '../jsonrpc/message.ts'
import { hasModernClaim } from '../modern/request-meta.ts'
import { isModernVersion } from '../modern/vocabulary.ts'

export type Classification =
  | {
      era: 'handshake'
      action: 'stream' | 'end-session' | 'initialize' | 'session' | 'response' | 'sessionless'
    }
  | { era: 'modern'; action: 'serve' | 'missing-meta' }
  | { era: 'none'; action: 'method-not-allowed' | 'unsupported-version' | 'session-required' }

export interface ClassifyInput {
  httpMethod: string
  /** The parsed POST body; undefined for GET/DELETE. */
  message: InboundMessage | undefined
  versionHeader: string | undefined
  sessionId: string | undefined
  /** Whether this server speaks the handshake era at all. */
  handshakeEnabled: boolean
}

export function classifyRequest(input: ClassifyInput): Classification {
  if (input.httpMethod === 'GET') return handshakeOr(input, 'stream')
  if (input.httpMethod === 'DELETE') return handshakeOr(input, 'end-session')
  const message = input.message
  if (message === undefined) return { era: 'none', action: 'method-not-allowed' }
  if (message.kind === 'response') return handshakeOr(input, 'response')
  if (message.message.method === 'initialize' && !hasModernClaim(message.message.params)) {
    return input.handshakeEnabled
      ? { era: 'handshake', action: 'initialize' }
      : { era: 'none', action: 'unsupported-version' }
  }
  if (hasModernClaim(message.message.params)) return { era: 'modern', action: 'serve' }
  const header = input.versionHeader
  if (header !== undefined && isModernVersion(header)) return { era: 'modern', action: 'missing-meta' }
  if (!input.handshakeEnabled) {
    return header === undefined
      ? { era: 'modern', action: 'missing-meta' }
      : { era: 'none', action: 'unsupported-version' }
  }
  if (input.sessionId !== undefined) return { era: 'handshake', action: 'session' }
  if (message.kind === 'notification') return { era: 'handshake', action: 'sessionless' }
  return { era: 'none', action: 'session-required' }
}

function handshakeOr(input: ClassifyInput, action: 'stream' | 'end-session' | 'response'): Classification {
  return input.handshakeEnabled ? { era: 'handshake', action } : { era: 'none', action: 'method-not-allowed' }
}
