/**
 * @module classify
 * Which era an HTTP request belongs to, decided from the request alone by a table whose first
 * matching row wins. One endpoint serves 2026-07-28 statelessly and 2025-11-25 with sessions; a
 * request that claims 2026-07-28 in its `_meta` is always answered the 2026-07-28 way, so a
 * dual-era client's probe never turns into a handshake session.
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
