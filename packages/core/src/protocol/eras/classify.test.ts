import { describe, expect, it } from 'vitest'
import type { InboundMessage } from '../jsonrpc/message.ts'
import { type ClassifyInput, classifyRequest } from './classify.ts'

const modernMeta = {
  _meta: {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  },
}
const request = (method: string, params?: Record<string, unknown>): InboundMessage => ({
  kind: 'request',
  message: { jsonrpc: '2.0', id: 1, method, params },
})
const input = (over: Partial<ClassifyInput>): ClassifyInput => ({
  httpMethod: 'POST',
  message: undefined,
  versionHeader: undefined,
  sessionId: undefined,
  handshakeEnabled: true,
  ...over,
})

describe('classifyRequest (one test per row of the table, in order)', () => {
  it('aGetOpensTheHandshakeStreamOr405OnAModernOnlyServer', () => {
    expect(classifyRequest(input({ httpMethod: 'GET' }))).toEqual({ era: 'handshake', action: 'stream' })
    expect(classifyRequest(input({ httpMethod: 'GET', handshakeEnabled: false }))).toEqual({
      era: 'none',
      action: 'method-not-allowed',
    })
  })
  it('aDeleteEndsTheHandshakeSessionOr405', () => {
    expect(classifyRequest(input({ httpMethod: 'DELETE' }))).toEqual({
      era: 'handshake',
      action: 'end-session',
    })
    expect(classifyRequest(input({ httpMethod: 'DELETE', handshakeEnabled: false }))).toEqual({
      era: 'none',
      action: 'method-not-allowed',
    })
  })
  it('aJsonRpcResponseGoesToTheHandshakeSession', () => {
    const message: InboundMessage = { kind: 'response', message: { jsonrpc: '2.0', id: 7, result: {} } }
    expect(classifyRequest(input({ message, sessionId: 's' }))).toEqual({
      era: 'handshake',
      action: 'response',
    })
  })
  it('initializeWithoutAModernClaimOpensTheHandshake', () => {
    expect(
      classifyRequest(input({ message: request('initialize', { protocolVersion: '2025-11-25' }) })),
    ).toEqual({
      era: 'handshake',
      action: 'initialize',
    })
    expect(classifyRequest(input({ message: request('initialize', {}), handshakeEnabled: false }))).toEqual({
      era: 'none',
      action: 'unsupported-version',
    })
  })
  it('initializeWithAModernClaimIsModern', () => {
    expect(classifyRequest(input({ message: request('initialize', modernMeta) }))).toEqual({
      era: 'modern',
      action: 'serve',
    })
  })
  it('aModernClaimIsModernEvenWithASessionId', () => {
    expect(classifyRequest(input({ message: request('tools/list', modernMeta), sessionId: 'abc' }))).toEqual({
      era: 'modern',
      action: 'serve',
    })
  })
  it('aModernVersionHeaderWithoutMetaIsModernAndMalformed', () => {
    expect(
      classifyRequest(input({ message: request('tools/list', {}), versionHeader: '2026-07-28' })),
    ).toEqual({
      era: 'modern',
      action: 'missing-meta',
    })
  })
  it('aSessionIdMeansTheHandshakeSession', () => {
    expect(
      classifyRequest(
        input({ message: request('tools/list', {}), sessionId: 'abc', versionHeader: '2025-11-25' }),
      ),
    ).toEqual({
      era: 'handshake',
      action: 'session',
    })
  })
  it('aHandshakeRequestWithoutSessionNeedsOne', () => {
    expect(
      classifyRequest(input({ message: request('tools/list', {}), versionHeader: '2025-11-25' })),
    ).toEqual({
      era: 'none',
      action: 'session-required',
    })
  })
  it('nothingAtAllOnAModernOnlyServerIsAModernRequestMissingItsMeta', () => {
    expect(classifyRequest(input({ message: request('tools/list', {}), handshakeEnabled: false }))).toEqual({
      era: 'modern',
      action: 'missing-meta',
    })
  })
  it('aHandshakeVersionHeaderOnAModernOnlyServerIsAnUnsupportedVersion', () => {
    expect(
      classifyRequest(
        input({ message: request('tools/list', {}), versionHeader: '2025-11-25', handshakeEnabled: false }),
      ),
    ).toEqual({
      era: 'none',
      action: 'unsupported-version',
    })
  })
})
