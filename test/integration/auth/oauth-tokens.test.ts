/**
 * @module oauth-tokens.test
 * The resource server over real HTTP: the metadata at both well-known URIs, the 401/400 answers
 * and their challenges in both eras, and every kind of bad token refused with the same shape.
 */
import { createPublicKey } from 'node:crypto'
import { jwtVerifier } from '@tessera/auth'
import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { errorOf, resultOf } from '../../helpers/mcp-http.ts'
import { unsignedToken } from '../../helpers/oauth.ts'
import { useOAuthServers, withToken } from '../fixtures/oauth-server.ts'

const start = useOAuthServers()

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
}

async function postInitialize(url: string, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...headers,
    },
    body: JSON.stringify(INITIALIZE),
  })
}

describe('Protected Resource Metadata', () => {
  it('isServedAtThePathSuffixedAndTheRootWellKnownUri', async () => {
    const f = await start({ dpop: true })
    const origin = new URL(f.url).origin
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      const response = await fetch(new URL(path, origin))
      expect(response.status).toBe(200)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(await response.json()).toEqual({
        resource: f.url,
        authorization_servers: [f.authority.issuer],
        bearer_methods_supported: ['header'],
        scopes_supported: ['ops:read', 'ops:rollback'],
        dpop_signing_alg_values_supported: ['ES256', 'ES384', 'EdDSA', 'RS256', 'PS256'],
        dpop_bound_access_tokens_required: false,
      })
    }
  })
})

describe('requests without a usable token', () => {
  const challengeOf = (url: string) =>
    `Bearer resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', url).href}", scope="ops:read ops:rollback"`

  it('answers401WithTheChallengeInBothEras', async () => {
    const f = await start()
    const modern = await f.client.request('tools/list')
    expect(modern.status).toBe(401)
    expect(modern.headers.get('www-authenticate')).toBe(challengeOf(f.url))
    expect(errorOf(modern).code).toBe(-32600)
    const handshake = await postInitialize(f.url)
    expect(handshake.status).toBe(401)
    expect(handshake.headers.get('www-authenticate')).toBe(challengeOf(f.url))
  })

  it('answers400ToAMalformedAuthorizationHeader', async () => {
    const f = await start()
    for (const authorization of ['Bearer', 'Bearer a b', 'Bearer {"json":1}']) {
      const reply = await f.client.request('tools/list', {}, { headers: { authorization } })
      expect(reply.status).toBe(400)
      expect(reply.headers.get('www-authenticate')).toContain('error="invalid_request"')
    }
  })

  it('refusesATokenInTheQueryStringEvenAValidOne', async () => {
    const f = await start()
    const token = await f.authority.mint({})
    const response = await fetch(`${f.url}?access_token=${token}`, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: '{}',
    })
    expect(response.status).toBe(400)
    expect(await response.text()).not.toContain(token)
  })
})

describe('token verification', () => {
  it('servesAValidTokenAndGivesHandlersThePrincipal', async () => {
    const f = await start()
    const token = await f.authority.mint({ scope: 'ops:read ops:rollback' })
    const list = await f.client.request('tools/list', {}, withToken(token))
    expect(list.status).toBe(200)
    const first = resultOf(await f.client.callTool('rollback', { service: 'api' }, withToken(token)))
    expect(first.resultType).toBe('input_required')
    const done = await f.client.callTool(
      'rollback',
      { service: 'api' },
      {
        ...withToken(token),
        extra: {
          requestState: first.requestState,
          inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
        },
      },
    )
    expect(resultOf(done).content).toEqual([{ type: 'text', text: 'rolled back api' }])
    expect(f.rollbacks).toEqual(['alice:api'])
  })

  it('refusesEveryBadTokenWith401InvalidTokenAndNeverEchoesIt', async () => {
    const f = await start()
    const now = Math.floor(Date.now() / 1000)
    const { authority } = f
    const rsaPublicPem = createPublicKey({ key: authority.publicJwks().keys[0]!, format: 'jwk' }).export({
      type: 'spki',
      format: 'pem',
    })
    const cases: Record<string, string> = {
      expired: await authority.mint({ iat: now - 600, exp: now - 120 }),
      notYetValid: await authority.mint({ nbf: now + 600 }),
      wrongAudience: await authority.mint({ aud: 'https://other.example/mcp' }),
      wrongIssuer: await authority.mint({ iss: 'https://evil.example' }),
      algNone: unsignedToken({ iss: authority.issuer, aud: f.url, sub: 'alice', exp: now + 300 }),
      hmacWithThePublicKey: await new SignJWT({
        iss: authority.issuer,
        aud: f.url,
        sub: 'alice',
        exp: now + 300,
      })
        .setProtectedHeader({ alg: 'HS256', kid: 'k1', typ: 'at+jwt' })
        .sign(new TextEncoder().encode(String(rsaPublicPem))),
      wrongType: await authority.mint({}, { typ: 'JWT' }),
      garbage: 'abc.def.ghi',
    }
    for (const [name, token] of Object.entries(cases)) {
      const reply = await f.client.request('tools/list', {}, withToken(token))
      expect({ name, status: reply.status }).toEqual({ name, status: 401 })
      expect(reply.headers.get('www-authenticate')).toContain('error="invalid_token"')
      expect(reply.raw).not.toContain(token)
      expect(reply.headers.get('www-authenticate')).not.toContain(token)
    }
  })

  it('fetchesARotatedJwksOnceForAnUnknownKidAndNeverStormsIt', async () => {
    const f = await start({
      verifier: (authority, audience) =>
        jwtVerifier({ issuer: authority.issuer, audience, jwks: authority.jwksUrl, jwksCooldownMs: 300 }),
    })
    const before = await f.authority.mint({})
    expect((await f.client.request('tools/list', {}, withToken(before))).status).toBe(200)
    const fetchesAfterFirst = f.authority.jwksFetches
    await f.authority.rotate()
    // A rotation comes long after the last fetch: past the cool-down, an unknown kid refetches.
    await new Promise((resolve) => setTimeout(resolve, 350))
    const rotated = await f.authority.mint({})
    expect((await f.client.request('tools/list', {}, withToken(rotated))).status).toBe(200)
    expect(f.authority.jwksFetches).toBe(fetchesAfterFirst + 1)
    const unknown = await Promise.all(
      Array.from({ length: 30 }, (_, i) => f.authority.mint({}, { kid: `nobody-${i}` })),
    )
    const replies = await Promise.all(unknown.map((t) => f.client.request('tools/list', {}, withToken(t))))
    expect(replies.every((r) => r.status === 401)).toBe(true)
    expect(f.authority.jwksFetches).toBeLessThanOrEqual(fetchesAfterFirst + 2)
  })
})
