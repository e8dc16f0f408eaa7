/**
 * @module handshake-modern-requests.test
 * 2026-07-28 requests on the endpoint a 2025-11-25 server shares: one carrying a stale or a live
 * Mcp-Session-Id is served statelessly, with no session header and the session left alone, and no
 * modern request ever mints a session.
 */
import { describe, expect, it } from 'vitest'
import { type Json, resultOf, textOf } from '../helpers/handshake-client.ts'
import { McpHttpClient, VERSION } from '../helpers/mcp-http.ts'
import { connect, url, useHandshakeServer } from './fixtures/handshake-server.ts'

useHandshakeServer()

describe('modern requests on the same endpoint', () => {
  it('servesAModernRequestCarryingAStaleMcpSessionIdStatelesslyWithNoSessionHeader', async () => {
    const handshake = await connect()
    const stale = handshake.sessionId!
    expect((await handshake.delete()).status).toBe(200)
    const modern = new McpHttpClient(url)
    for (const session of [stale, 'never-existed']) {
      const reply = await modern.callTool(
        'echo',
        { text: 'modern' },
        { headers: { 'mcp-session-id': session } },
      )
      expect(reply.status).toBe(200)
      expect(reply.headers.get('mcp-session-id')).toBeNull()
      const result = reply.body?.result as Json
      expect(result.resultType).toBe('complete')
      expect(textOf(result)).toBe('echo: modern')
    }
  })

  it('servesAModernRequestCarryingALiveSessionIdStatelesslyTooAndLeavesTheSessionAlone', async () => {
    const handshake = await connect()
    const modern = new McpHttpClient(url)
    const reply = await modern.request(
      'tools/list',
      {},
      { headers: { 'mcp-session-id': handshake.sessionId! } },
    )
    expect(reply.status).toBe(200)
    expect(reply.headers.get('mcp-session-id')).toBeNull()
    expect((reply.body?.result as Json | undefined)?.resultType).toBe('complete')
    expect((reply.body?.result as Json | undefined)?.ttlMs).toBeTypeOf('number')
    const discover = await modern.request(
      'server/discover',
      {},
      { headers: { 'mcp-session-id': handshake.sessionId! } },
    )
    expect(discover.headers.get('mcp-session-id')).toBeNull()
    expect((discover.body?.result as Json | undefined)?.supportedVersions).toContain(VERSION)
    expect(resultOf(await handshake.request('ping'))).toStrictEqual({})
  })

  it('neverMintsASessionForAModernRequest', async () => {
    const modern = new McpHttpClient(url)
    const reply = await modern.request('tools/list')
    expect(reply.headers.get('mcp-session-id')).toBeNull()
  })
})
