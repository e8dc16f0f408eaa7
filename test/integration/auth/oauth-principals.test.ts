/**
 * @module oauth-principals.test
 * The principal a verified token yields, over real HTTP: scopes checked before anything runs
 * (403 with the step-up challenge), lists cut to what a token permits, the tokens of two issuers
 * on one resource server (the same `sub` from each a different caller), multi round-trip states
 * and single-use records that never cross between subjects but survive a token refresh, and
 * handshake sessions bound to the subject that opened them.
 */
import { describe, expect, it } from 'vitest'
import { errorOf, type McpHttpClient, type Reply, resultOf } from '../../helpers/mcp-http.ts'
import { useOAuthServers, withToken } from '../fixtures/oauth-server.ts'

const start = useOAuthServers()
const yes = { confirm: { action: 'accept', content: { ok: true } } }

/** The first round of a rollback: the question, and the state to answer it with. */
async function askRollback(client: McpHttpClient, token: string) {
  const reply = await client.callTool('rollback', { service: 'api' }, withToken(token))
  const result = resultOf(reply)
  expect(result.resultType).toBe('input_required')
  return result.requestState as string
}

describe('scopes', () => {
  it('refusesACallWithoutItsScopeWith403AndTheStepUpChallenge', async () => {
    const f = await start()
    const readOnly = await f.authority.mint({ scope: 'ops:read' })
    const reply = await f.client.callTool('rollback', { service: 'api' }, withToken(readOnly))
    expect(reply.status).toBe(403)
    expect(errorOf(reply).data).toEqual({ requiredScopes: ['ops:rollback'] })
    expect(reply.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="ops:rollback", resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', f.url).href}", error_description="The access token lacks a scope this call needs."`,
    )
    expect(f.rollbacks).toEqual([])
  })

  it('hidesFromListsWhatTheTokenCannotUseAndMarksThemPrivate', async () => {
    const f = await start({ listOnlyPermitted: true })
    const names = (reply: Reply) => (resultOf(reply).tools as { name: string }[]).map((t) => t.name)
    const reader = await f.authority.mint({ scope: 'ops:read' })
    const operator = await f.authority.mint({ scope: 'ops:read ops:rollback' })
    const forReader = await f.client.request('tools/list', {}, withToken(reader))
    expect(names(forReader)).toEqual(['status'])
    expect(resultOf(forReader).cacheScope).toBe('private')
    expect(names(await f.client.request('tools/list', {}, withToken(operator)))).toEqual([
      'status',
      'rollback',
    ])
  })
})

describe('principals', () => {
  it('acceptsTheTokensOfTwoIssuersAndKeepsTheirSameSubjectsApart', async () => {
    const f = await start({ secondIssuer: true })
    const acme = await f.authority.mint({ sub: 'ann', scope: 'ops:read ops:rollback' })
    const globex = await f.other!.mint({ sub: 'ann', scope: 'ops:read ops:rollback' })
    for (const token of [acme, globex])
      expect(resultOf(await f.client.callTool('status', {}, withToken(token))).content).toEqual([
        { type: 'text', text: 'all green' },
      ])
    const metadata = (await (
      await fetch(new URL('/.well-known/oauth-protected-resource/mcp', f.url))
    ).json()) as { authorization_servers: string[] }
    expect(metadata.authorization_servers).toEqual([f.authority.issuer, f.other!.issuer])
    // The same `sub` from the other issuer is another caller: its state is not theirs.
    const acmeState = await askRollback(f.client, acme)
    const crossed = await f.client.callTool(
      'rollback',
      { service: 'api' },
      { ...withToken(globex), extra: { requestState: acmeState, inputResponses: yes } },
    )
    expect(crossed.status).toBe(400)
    expect(errorOf(crossed).code).toBe(-32602)
    expect(f.rollbacks).toEqual([])
  })

  it('neverLetsOneSubjectUseAnothersStateOrSingleUseRecord', async () => {
    const f = await start()
    const alice = await f.authority.mint({ sub: 'alice', scope: 'ops:rollback' })
    const bob = await f.authority.mint({ sub: 'bob', scope: 'ops:rollback' })
    const aliceState = await askRollback(f.client, alice)
    const stolen = await f.client.callTool(
      'rollback',
      { service: 'api' },
      {
        ...withToken(bob),
        extra: { requestState: aliceState, inputResponses: yes },
      },
    )
    expect(stolen.status).toBe(400)
    expect(errorOf(stolen).code).toBe(-32602)
    const bobState = await askRollback(f.client, bob)
    for (const [token, state] of [
      [alice, aliceState],
      [bob, bobState],
    ] as const) {
      const done = await f.client.callTool(
        'rollback',
        { service: 'api' },
        {
          ...withToken(token),
          extra: { requestState: state, inputResponses: yes },
        },
      )
      expect(resultOf(done).content).toEqual([{ type: 'text', text: 'rolled back api' }])
    }
    expect(f.rollbacks.sort()).toEqual(['alice:api', 'bob:api'])
  })

  it('keepsAStateGoodAcrossATokenRefreshOfTheSameSubject', async () => {
    const f = await start()
    const first = await f.authority.mint({ sub: 'alice', scope: 'ops:rollback' })
    const state = await askRollback(f.client, first)
    const refreshed = await f.authority.mint({ sub: 'alice', scope: 'ops:rollback' })
    expect(refreshed).not.toBe(first)
    const done = await f.client.callTool(
      'rollback',
      { service: 'api' },
      {
        ...withToken(refreshed),
        extra: { requestState: state, inputResponses: yes },
      },
    )
    expect(resultOf(done).content).toEqual([{ type: 'text', text: 'rolled back api' }])
    expect(f.rollbacks).toEqual(['alice:api'])
  })

  it('failsClosedForATokenWithoutASubject', async () => {
    const f = await start()
    const anonymousClient = await f.authority.mint({ sub: undefined, scope: 'ops:rollback' })
    const reply = await f.client.callTool('rollback', { service: 'api' }, withToken(anonymousClient))
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32602)
  })

  it('bindsAHandshakeSessionToTheSubjectThatOpenedIt', async () => {
    const f = await start()
    const alice = await f.authority.mint({ sub: 'alice' })
    const bob = await f.authority.mint({ sub: 'bob' })
    const post = (token: string, body: unknown, session?: string) =>
      fetch(f.url, {
        method: 'POST',
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          'mcp-protocol-version': '2025-11-25',
          ...(session ? { 'mcp-session-id': session } : {}),
        },
        body: JSON.stringify(body),
      })
    const opened = await post(alice, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    })
    const session = opened.headers.get('mcp-session-id')!
    expect(session).toBeTruthy()
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }
    expect((await post(alice, list, session)).status).toBe(200)
    expect((await post(bob, list, session)).status).toBe(404)
  })

  it('opensNoHandshakeSessionForATokenWithoutASubject', async () => {
    const f = await start()
    const noSubject = await f.authority.mint({ sub: undefined })
    const opened = await fetch(f.url, {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        authorization: `Bearer ${noSubject}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    })
    expect(opened.status).toBe(403)
    expect(opened.headers.get('mcp-session-id')).toBeNull()
  })

  it('answers403WithTheChallengeInAHandshakeSessionToo', async () => {
    const f = await start()
    const reader = await f.authority.mint({ scope: 'ops:read' })
    const headers = {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      authorization: `Bearer ${reader}`,
    }
    const opened = await fetch(f.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    })
    const session = opened.headers.get('mcp-session-id')!
    const call = await fetch(f.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'rollback', arguments: { service: 'api' } },
      }),
    })
    expect(call.status).toBe(403)
    expect(call.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="ops:rollback"')
  })
})
