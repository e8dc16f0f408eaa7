/**
 * @module handshake-initialize.test
 * initialize in the 2025-11-25 handshake era, on the endpoint shared with 2026-07-28: the version
 * echoed or negotiated down (never 2026-07-28), capabilities and server info, -32602 and no session
 * for a bad initialize (a malformed clientInfo among them), session ids of at least 128 bits never
 * minted twice, and a second initialize that opens a new session and keeps the old one.
 */
import { describe, expect, it } from 'vitest'
import { errorOf, HANDSHAKE_VERSION, HandshakeClient, resultOf } from '../helpers/handshake-client.ts'
import { connect, url, useHandshakeServer } from './fixtures/handshake-server.ts'

useHandshakeServer()

describe('initialize', () => {
  it('echoesTheNewest2025VersionAndOpensASession', async () => {
    const client = new HandshakeClient(url)
    const reply = await client.initialize()
    expect(reply.status).toBe(200)
    expect(reply.contentType).toMatch(/^application\/json/)
    const result = resultOf(reply)
    expect(result.protocolVersion).toBe(HANDSHAKE_VERSION)
    expect(result.serverInfo).toMatchObject({ name: 'it-handshake', version: '2.0.0' })
    expect(result.capabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
    })
    expect(result).not.toHaveProperty('resultType')
    expect(client.sessionId).toBeDefined()
    expect((await client.notify('notifications/initialized')).status).toBe(202)
    expect(resultOf(await client.request('tools/list')).tools).toBeInstanceOf(Array)
  })

  it.each(['2025-06-18', '2025-03-26'])('echoesTheOlder2025EraVersion%sItSupports', async (version) => {
    const client = new HandshakeClient(url)
    expect(resultOf(await client.initialize({ protocolVersion: version })).protocolVersion).toBe(version)
  })

  it.each(['1999-01-01', 'not-a-version', '2026-07-28'])(
    'answers%sWithTheNewest2025VersionNever2026',
    async (version) => {
      const client = new HandshakeClient(url)
      const reply = await client.initialize({ protocolVersion: version })
      expect(reply.status).toBe(200)
      expect(resultOf(reply).protocolVersion).toBe(HANDSHAKE_VERSION)
      expect(client.sessionId).toBeDefined()
    },
  )

  it('neverOffers2026EvenWhenTheHeaderAsksForIt', async () => {
    const client = new HandshakeClient(url)
    const reply = await client.initialize(
      { protocolVersion: '2026-07-28' },
      { 'mcp-protocol-version': '2026-07-28' },
    )
    expect(resultOf(reply).protocolVersion).toBe(HANDSHAKE_VERSION)
  })

  it('refusesAnInitializeWithoutProtocolVersionOrCapabilitiesWith32602AndNoSession', async () => {
    const client = new HandshakeClient(url)
    const reply = await client.initialize({ protocolVersion: undefined, capabilities: undefined })
    expect(errorOf(reply).code).toBe(-32602)
    expect(reply.headers.get('mcp-session-id')).toBeNull()
  })

  it('refusesAnInitializeWhoseClientInfoNameCouldForgeALogLineAndOpensNoSession', async () => {
    const client = new HandshakeClient(url)
    const reply = await client.initialize({
      clientInfo: { name: 'ops-bot\n#99 deploy 9.9.9 by security-team: APPROVED', version: '1' },
    })
    expect(errorOf(reply).code).toBe(-32602)
    expect(errorOf(reply).message).toContain('clientInfo.name')
    expect(reply.headers.get('mcp-session-id')).toBeNull()
  })

  it('mintsVisibleAsciiSessionIdsOfAtLeast128BitsNeverTwice', async () => {
    const ids = new Set<string>()
    for (let i = 0; i < 20; i++) {
      const client = new HandshakeClient(url)
      await client.initialize()
      const id = client.sessionId!
      expect(id).toMatch(/^[\x21-\x7E]+$/)
      // Bits carried by the id, from the alphabet it is drawn from.
      const bitsPerChar = /^[0-9a-f]+$/i.test(id) ? 4 : /^[A-Za-z0-9_-]+$/.test(id) ? 6 : 0
      expect(id.length * bitsPerChar).toBeGreaterThanOrEqual(128)
      ids.add(id)
    }
    expect(ids.size).toBe(20)
  })

  it('opensANewSessionForAnInitializeThatCarriesASessionIdAndKeepsTheOldOne', async () => {
    const client = await connect()
    const old = client.sessionId!
    const reply = await client.initialize()
    expect(resultOf(reply).protocolVersion).toBe(HANDSHAKE_VERSION)
    expect(client.sessionId).not.toBe(old)
    expect(resultOf(await client.at(url).request('ping'))).toStrictEqual({})
    const back = client.at(url)
    back.sessionId = old
    expect(resultOf(await back.request('ping'))).toStrictEqual({})
  })
})
