/**
 * @module classify
 * Which era an HTTP request belongs to, decided from the request alone (handshake digest §8.1,
 * first match wins). One endpoint serves 2026-07-28 statelessly and 2025-11-25 with sessions; a
 * modern-shaped request is always answered the modern way, so a dual-era client's probe never
 * turns into a legacy session.
 */
import type { InboundMessage } from '../jsonrpc/message.ts'
import { hasModernClaim } from '../modern/envelope.ts'
import { isModernVersion } from '../modern/vocabulary.ts'

export type Classification =
  | {
      era: 'legacy'
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
  legacyEnabled: boolean
}

export function classify(input: ClassifyInput): Classification {
  if (input.httpMethod === 'GET') return legacyOr(input, 'stream')
  if (input.httpMethod === 'DELETE') return legacyOr(input, 'end-session')
  const message = input.message
  if (message === undefined) return { era: 'none', action: 'method-not-allowed' }
  if (message.kind === 'response') return legacyOr(input, 'response')
  if (message.message.method === 'initialize' && !hasModernClaim(message.message.params)) {
    return input.legacyEnabled
      ? { era: 'legacy', action: 'initialize' }
      : { era: 'none', action: 'unsupported-version' }
  }
  if (hasModernClaim(message.message.params)) return { era: 'modern', action: 'serve' }
  const header = input.versionHeader
  if (header !== undefined && isModernVersion(header)) return { era: 'modern', action: 'missing-meta' }
  if (!input.legacyEnabled) {
    return header === undefined
      ? { era: 'modern', action: 'missing-meta' }
      : { era: 'none', action: 'unsupported-version' }
  }
  if (input.sessionId !== undefined) return { era: 'legacy', action: 'session' }
  if (message.kind === 'notification') return { era: 'legacy', action: 'sessionless' }
  return { era: 'none', action: 'session-required' }
}

function legacyOr(input: ClassifyInput, action: 'stream' | 'end-session' | 'response'): Classification {
  return input.legacyEnabled ? { era: 'legacy', action } : { era: 'none', action: 'method-not-allowed' }
}
