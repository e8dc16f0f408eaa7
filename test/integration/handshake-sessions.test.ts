/**
 * @module handshake-sessions.test
 * Sessions of the 2025-11-25 handshake era: 404 for an unknown id on POST, GET and DELETE, 400
 * without an id or with an unsupported version header, DELETE ending the session and its GET stream,
 * and a session bound to its principal (another principal, or none, sees it as unknown).
 */
import { describe, expect, it } from 'vitest'
import {
  EventReader,
  errorOf,
  HANDSHAKE_VERSION,
  HandshakeClient,
  resultOf,
} from '../helpers/handshake-client.ts'
import { bearer } from '../helpers/mcp-http.ts'
import { connect, url, useHandshakeServer } from './fixtures/handshake-server.ts'

useHandshakeServer()

const ALICE = { issuer: 'https://idp.example', subject: 'alice', clientId: 'app' }
const MALLORY = { issuer: 'https://idp.example', subject: 'mallory', clientId: 'app' }

describe('sessions', () => {
  it('answersAnUnknownSessionIdWith404OnPostGetAndDelete', async () => {
    const client = new HandshakeClient(url)
    client.sessionId = 'no-such-session-aaaaaaaaaaaaaaaaaaaaaaaaaaaa'
    client.protocolVersion = HANDSHAKE_VERSION
    const reply = await client.request('tools/list')
    expect(reply.status).toBe(404)
    expect(errorOf(reply).code).toBe(-32600)
    expect((await client.get()).status).toBe(404)
    expect((await client.delete()).status).toBe(404)
    // A notification or a response with an unknown session is not accepted either.
    expect((await client.notify('notifications/initialized')).status).toBe(404)
  })

  it('answersANonInitializeRequestWithoutASessionIdWith400', async () => {
    const client = await connect()
    const reply = await client.request('tools/list', undefined, { headers: { 'mcp-session-id': null } })
    expect(reply.status).toBe(400)
    expect(reply.body?.id).toBeDefined()
    const get = await client.get(undefined, { 'mcp-session-id': null })
    expect(get.status).toBe(400)
  })

  it('answersAnUnsupportedMcpProtocolVersionInASessionWith400', async () => {
    const client = await connect()
    const reply = await client.request('tools/list', undefined, {
      headers: { 'mcp-protocol-version': '1999-01-01' },
    })
    expect(reply.status).toBe(400)
  })

  it('endsASessionOnDelete200Then404ForTheId', async () => {
    const client = await connect()
    expect(resultOf(await client.request('ping')).constructor).toBe(Object)
    const gone = await client.delete()
    expect(gone.status).toBe(200)
    expect((await client.request('tools/list')).status).toBe(404)
    expect((await client.get()).status).toBe(404)
    expect((await client.delete()).status).toBe(404)
  })

  it('endsTheOpenGetStreamOfASessionOnDelete', async () => {
    const client = await connect()
    const reader = new EventReader(await client.get())
    expect((await reader.next())?.id).toBeDefined()
    expect((await client.delete()).status).toBe(200)
    expect(await reader.next(2_000)).toBeUndefined()
  })

  it('treatsASessionUsedByAnotherPrincipalAsUnknown404AndKeepsItForItsOwner', async () => {
    const alice = await connect(bearer(ALICE))
    expect(resultOf(await alice.request('ping'))).toEqual({})
    const stolen = alice.at(url)
    const asMallory = { ...bearer(MALLORY) }
    const reply = await stolen.request(
      'tools/call',
      { name: 'echo', arguments: { text: 'x' } },
      { headers: asMallory },
    )
    expect(reply.status).toBe(404)
    expect((await stolen.request('ping', undefined, { headers: { authorization: null } })).status).toBe(404)
    expect((await stolen.get(undefined, asMallory)).status).toBe(404)
    expect((await stolen.delete(asMallory)).status).toBe(404)
    expect((await stolen.notify('notifications/initialized', undefined, asMallory)).status).toBe(404)
    // Alice still has her session.
    expect(resultOf(await alice.request('ping'))).toEqual({})
  })

  it('keepsAnAnonymousSessionAwayFromAnAuthenticatedCaller', async () => {
    const anonymous = await connect()
    const reply = await anonymous.request('ping', undefined, { headers: bearer(ALICE) })
    expect(reply.status).toBe(404)
  })
})
