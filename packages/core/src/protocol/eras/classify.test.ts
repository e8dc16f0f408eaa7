import { describe, expect, it } from 'vitest'
import type { InboundMessage } from '../jsonrpc/message.ts'
import { type ClassifyInput, classify } from './classify.ts'

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
  legacyEnabled: true,
  ...over,
})

describe('classify (handshake digest §8.1, one test per row)', () => {
  it('row1_aGetOpensTheLegacyStreamOr405OnAModernOnlyServer', () => {
    expect(classify(input({ httpMethod: 'GET' }))).toEqual({ era: 'legacy', action: 'stream' })
    expect(classify(input({ httpMethod: 'GET', legacyEnabled: false }))).toEqual({
      era: 'none',
      action: 'method-not-allowed',
    })
  })
  it('row2_aDeleteEndsTheLegacySessionOr405', () => {
    expect(classify(input({ httpMethod: 'DELETE' }))).toEqual({ era: 'legacy', action: 'end-session' })
    expect(classify(input({ httpMethod: 'DELETE', legacyEnabled: false }))).toEqual({
      era: 'none',
      action: 'method-not-allowed',
    })
  })
  it('row4_aJsonRpcResponseGoesToTheLegacySession', () => {
    const message: InboundMessage = { kind: 'response', message: { jsonrpc: '2.0', id: 7, result: {} } }
    expect(classify(input({ message, sessionId: 's' }))).toEqual({ era: 'legacy', action: 'response' })
  })
  it('row5_initializeWithoutAModernClaimIsTheLegacyHandshake', () => {
    expect(classify(input({ message: request('initialize', { protocolVersion: '2025-11-25' }) }))).toEqual({
      era: 'legacy',
      action: 'initialize',
    })
    expect(classify(input({ message: request('initialize', {}), legacyEnabled: false }))).toEqual({
      era: 'none',
      action: 'unsupported-version',
    })
  })
  it('row5b_initializeWithAModernClaimIsModern', () => {
    expect(classify(input({ message: request('initialize', modernMeta) }))).toEqual({
      era: 'modern',
      action: 'serve',
    })
  })
  it('row6_aModernClaimIsModernEvenWithASessionId', () => {
    expect(classify(input({ message: request('tools/list', modernMeta), sessionId: 'abc' }))).toEqual({
      era: 'modern',
      action: 'serve',
    })
  })
  it('row7_aModernVersionHeaderWithoutMetaIsModernAndMalformed', () => {
    expect(classify(input({ message: request('tools/list', {}), versionHeader: '2026-07-28' }))).toEqual({
      era: 'modern',
      action: 'missing-meta',
    })
  })
  it('row8_aSessionIdMeansTheLegacySession', () => {
    expect(
      classify(input({ message: request('tools/list', {}), sessionId: 'abc', versionHeader: '2025-11-25' })),
    ).toEqual({
      era: 'legacy',
      action: 'session',
    })
  })
  it('row9_aLegacyRequestWithoutSessionNeedsOne', () => {
    expect(classify(input({ message: request('tools/list', {}), versionHeader: '2025-11-25' }))).toEqual({
      era: 'none',
      action: 'session-required',
    })
  })
  it('row10_nothingAtAllOnAModernOnlyServerIsAModernRequestMissingItsMeta', () => {
    expect(classify(input({ message: request('tools/list', {}), legacyEnabled: false }))).toEqual({
      era: 'modern',
      action: 'missing-meta',
    })
  })
  it('aLegacyVersionHeaderOnAModernOnlyServerIsAnUnsupportedVersion', () => {
    expect(
      classify(
        input({ message: request('tools/list', {}), versionHeader: '2025-11-25', legacyEnabled: false }),
      ),
    ).toEqual({
      era: 'none',
      action: 'unsupported-version',
    })
  })
})
