/**
 * @module introspection-verifier.test
 * The introspection verifier against a real HTTP endpoint that counts requests, with a fixed
 * clock the tests move: what is sent, what each answer means, and when an answer is reused.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  deadUrl,
  type RecordedRequest,
  type Reply,
  startServer,
  type TestServer,
} from './http-server.fixture.ts'
import { type IntrospectionVerifierOptions, introspectionVerifier } from './introspection-verifier.ts'
import { AUDIENCE, expectNoTraceOf, ISSUER, NOW, NOW_MS, rejection } from './signing.fixture.ts'

const TOKEN = 'opaque-token-4f1d9b'
const servers: TestServer[] = []
let clock = NOW_MS

afterEach(async () => {
  clock = NOW_MS
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

const active = (claims: Record<string, unknown> = {}) => ({
  body: { active: true, iss: ISSUER, aud: AUDIENCE, sub: 'user-1', exp: NOW + 300, ...claims },
})

/** A server answering `answer(token)` for the token in each request's form body. */
async function endpoint(answer: (token: string | null) => Reply): Promise<TestServer> {
  const server = await startServer((request: RecordedRequest) =>
    answer(new URLSearchParams(request.body).get('token')),
  )
  servers.push(server)
  return server
}

function verifierFor(server: TestServer | URL, options: Partial<IntrospectionVerifierOptions> = {}) {
  const url = new URL('/introspect', server instanceof URL ? server : server.url)
  return introspectionVerifier({
    endpoint: url,
    clientId: 'resource-server',
    clientSecret: 'secret',
    audience: AUDIENCE,
    now: () => clock,
    ...options,
  })
}

describe('introspectionVerifier', () => {
  it('verifiesAnActiveTokenWithItsScopes', async () => {
    const server = await endpoint(() => active({ scope: 'tools:read tools:call', client_id: 'client-1' }))
    expect(await verifierFor(server).verify(TOKEN)).toEqual({
      issuer: ISSUER,
      subject: 'user-1',
      clientId: 'client-1',
      scopes: ['tools:read', 'tools:call'],
      audience: [AUDIENCE],
      expiresAt: NOW + 300,
      jkt: undefined,
      claims: {
        active: true,
        iss: ISSUER,
        aud: AUDIENCE,
        sub: 'user-1',
        exp: NOW + 300,
        scope: 'tools:read tools:call',
        client_id: 'client-1',
      },
    })
  })

  it('postsTheTokenAsAFormWithBasicClientAuthentication', async () => {
    const server = await endpoint(() => active())
    const clientId = 'tessera client'
    const clientSecret = 'p@ss:wörd+1'
    await verifierFor(server, { clientId, clientSecret }).verify(TOKEN)
    const [request] = server.requests
    expect(request).toMatchObject({ method: 'POST', path: '/introspect' })
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(request?.headers.accept).toBe('application/json')
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
      token: TOKEN,
      token_type_hint: 'access_token',
    })
    const authorization = request?.headers.authorization ?? ''
    expect(authorization).toBe(`Basic ${btoa('tessera+client:p%40ss%3Aw%C3%B6rd%2B1')}`)
    // Decoded as an authorization server does: base64, split at the first colon, form-decode each.
    const [id, secret] = atob(authorization.slice('Basic '.length)).split(':')
    const formDecode = (value = '') => decodeURIComponent(value.replaceAll('+', ' '))
    expect([formDecode(id), formDecode(secret)]).toEqual([clientId, clientSecret])
  })

  it('refusesAnInactiveToken', async () => {
    const server = await endpoint(() => ({ body: { active: false } }))
    expect((await rejection(verifierFor(server).verify(TOKEN))).reason).toBe('inactive')
  })

  it('cachesAnInactiveAnswerForAtMostFiveSeconds', async () => {
    const server = await endpoint(() => ({ body: { active: false } }))
    const verifier = verifierFor(server)
    await rejection(verifier.verify(TOKEN))
    clock += 4_999
    expect((await rejection(verifier.verify(TOKEN))).reason).toBe('inactive')
    expect(server.requests).toHaveLength(1)
    clock += 1
    await rejection(verifier.verify(TOKEN))
    expect(server.requests).toHaveLength(2)
  })

  it('refusesATokenForAnotherResource', async () => {
    for (const aud of ['https://other.example/mcp', ['https://other.example/mcp'], undefined]) {
      const server = await endpoint(() => active({ aud }))
      expect((await rejection(verifierFor(server).verify(TOKEN))).reason).toBe('wrong-audience')
    }
    const server = await endpoint(() => active({ aud: ['https://other.example/mcp', AUDIENCE] }))
    expect((await verifierFor(server).verify(TOKEN)).audience).toContain(AUDIENCE)
  })

  it('refusesAnAnswerFromAnotherIssuer', async () => {
    const server = await endpoint(() => active({ iss: 'https://evil.example' }))
    const error = await rejection(verifierFor(server, { issuer: ISSUER }).verify(TOKEN))
    expect(error.reason).toBe('wrong-issuer')
  })

  it('takesTheIssuerFromTheAnswerElseTheOptionsElseTheEndpoint', async () => {
    const stated = await endpoint(() => active({ iss: 'https://stated.example' }))
    expect((await verifierFor(stated).verify(TOKEN)).issuer).toBe('https://stated.example')
    const silent = await endpoint(() => active({ iss: undefined }))
    expect((await verifierFor(silent, { issuer: ISSUER }).verify(TOKEN)).issuer).toBe(ISSUER)
    expect((await verifierFor(silent).verify(TOKEN)).issuer).toBe(silent.url.origin)
  })

  it('checksTheAnswersTimesAgainstTheClock', async () => {
    const expired = await endpoint(() => active({ exp: NOW - 31 }))
    expect((await rejection(verifierFor(expired).verify(TOKEN))).reason).toBe('expired')
    const early = await endpoint(() => active({ nbf: NOW + 31 }))
    expect((await rejection(verifierFor(early).verify(TOKEN))).reason).toBe('not-yet-valid')
    const tolerated = await endpoint(() => active({ exp: NOW - 20, nbf: NOW + 20 }))
    expect((await verifierFor(tolerated).verify(TOKEN)).subject).toBe('user-1')
    const strict = verifierFor(tolerated, { clockToleranceSec: 0 })
    expect((await rejection(strict.verify(TOKEN))).reason).toBe('not-yet-valid')
  })

  it('cachesAnActiveAnswerButNotBeyondItsExp', async () => {
    let stillActive = true
    const server = await endpoint(() =>
      stillActive ? active({ exp: NOW + 20 }) : { body: { active: false } },
    )
    const verifier = verifierFor(server, { cacheTtlMs: 60_000 })
    await verifier.verify(TOKEN)
    clock += 19_000
    expect((await verifier.verify(TOKEN)).subject).toBe('user-1')
    expect(server.requests).toHaveLength(1)
    stillActive = false
    clock += 1_000
    expect((await rejection(verifier.verify(TOKEN))).reason).toBe('inactive')
    expect(server.requests).toHaveLength(2)
  })

  it('cachesAnAnswerNoLongerThanTheTtl', async () => {
    const server = await endpoint(() => active({ exp: undefined }))
    const verifier = verifierFor(server, { cacheTtlMs: 1_000 })
    await verifier.verify(TOKEN)
    clock += 999
    await verifier.verify(TOKEN)
    expect(server.requests).toHaveLength(1)
    clock += 1
    await verifier.verify(TOKEN)
    expect(server.requests).toHaveLength(2)
    await verifierFor(server, { cacheTtlMs: 0 }).verify(TOKEN)
    expect(server.requests).toHaveLength(3)
  })

  it('reportsAServerErrorAsVerifierUnavailableAndDoesNotCacheIt', async () => {
    let reply: Reply = { status: 500 }
    const server = await endpoint(() => reply)
    const verifier = verifierFor(server)
    expect((await rejection(verifier.verify(TOKEN))).reason).toBe('verifier-unavailable')
    expect((await rejection(verifier.verify(TOKEN))).reason).toBe('verifier-unavailable')
    expect(server.requests).toHaveLength(2)
    reply = active()
    expect((await verifier.verify(TOKEN)).subject).toBe('user-1')
  })

  it('reportsGarbledAnswersAsVerifierUnavailable', async () => {
    const garbled = ['{"active": tru', [], { active: 'true' }, {}, 'null']
    for (const body of garbled) {
      const server = await endpoint(() => ({ body }))
      expect((await rejection(verifierFor(server).verify(TOKEN))).reason).toBe('verifier-unavailable')
    }
    const redirecting = await endpoint(() => ({ status: 307 }))
    expect((await rejection(verifierFor(redirecting).verify(TOKEN))).reason).toBe('verifier-unavailable')
  })

  it('readsNoAnswerLargerThan64KiB', async () => {
    const server = await endpoint(() => active({ padding: 'x'.repeat(70 * 1024) }))
    expect((await rejection(verifierFor(server).verify(TOKEN))).reason).toBe('verifier-unavailable')
  })

  it('refusesAPlainHttpEndpointThatIsNotLoopback', () => {
    expect(() =>
      introspectionVerifier({
        endpoint: 'http://idp.example/introspect',
        clientId: 'c',
        clientSecret: 's',
        audience: AUDIENCE,
      }),
    ).toThrow(/https URL/)
  })

  it('refusesAnActiveAnswerWithMisshapenClaims', async () => {
    for (const claims of [{ scope: ['a'] }, { sub: '' }, { exp: '1' }, { iss: 7 }]) {
      const server = await endpoint(() => active(claims))
      expect((await rejection(verifierFor(server).verify(TOKEN))).reason).toBe('malformed')
    }
  })

  it('reportsAnUnreachableOrSlowEndpointAsVerifierUnavailable', async () => {
    const unreachable = verifierFor(await deadUrl())
    expect((await rejection(unreachable.verify(TOKEN))).reason).toBe('verifier-unavailable')
    const slow = await endpoint(() => ({ ...active(), delayMs: 2_000 }))
    const started = Date.now()
    expect((await rejection(verifierFor(slow, { timeoutMs: 100 }).verify(TOKEN))).reason).toBe(
      'verifier-unavailable',
    )
    expect(Date.now() - started).toBeLessThan(1_500)
  })

  it('sharesOneRequestBetweenConcurrentVerificationsOfATokenOnly', async () => {
    const server = await endpoint(() => ({ ...active(), delayMs: 50 }))
    const verifier = verifierFor(server)
    const results = await Promise.all(Array.from({ length: 10 }, () => verifier.verify(TOKEN)))
    expect(results.map((result) => result.subject)).toEqual(Array(10).fill('user-1'))
    expect(server.requests).toHaveLength(1)
    await Promise.all(['t-1', 't-2', 't-3'].map((token) => verifier.verify(token)))
    expect(server.requests).toHaveLength(4)
  })

  it('sharesAFailureBetweenConcurrentVerificationsWithoutCachingIt', async () => {
    const server = await endpoint(() => ({ status: 502, delayMs: 50 }))
    const verifier = verifierFor(server)
    await Promise.all(Array.from({ length: 5 }, () => rejection(verifier.verify(TOKEN))))
    expect(server.requests).toHaveLength(1)
    await rejection(verifier.verify(TOKEN))
    expect(server.requests).toHaveLength(2)
  })

  it('evictsTheOldestAnswerWhenTheCacheIsFull', async () => {
    const server = await endpoint(() => active())
    const verifier = verifierFor(server, { maxCacheEntries: 2 })
    for (const token of ['t-1', 't-2', 't-3']) await verifier.verify(token)
    await verifier.verify('t-3')
    await verifier.verify('t-2')
    expect(server.requests).toHaveLength(3)
    await verifier.verify('t-1')
    expect(server.requests).toHaveLength(4)
  })

  it('refusesAnEmptyOrOversizedTokenWithoutAsking', async () => {
    const server = await endpoint(() => active())
    for (const token of ['', 'x'.repeat(16 * 1024 + 1)]) {
      expect((await rejection(verifierFor(server).verify(token))).reason).toBe('malformed')
    }
    expect(server.requests).toHaveLength(0)
  })

  it('neverPutsTheTokenOrTheSecretInARejection', async () => {
    const secret = 'client-secret-91b2'
    const replies: Reply[] = [
      { body: { active: false } },
      { status: 500, body: TOKEN },
      { body: `not json ${TOKEN}` },
      active({ aud: TOKEN }),
      active({ exp: NOW - 100, sub: TOKEN }),
    ]
    for (const reply of replies) {
      const server = await endpoint(() => reply)
      const error = await rejection(verifierFor(server, { clientSecret: secret }).verify(TOKEN))
      expect(error.message).toBe(`Access token rejected: ${error.reason}.`)
      expectNoTraceOf(error, TOKEN, [secret])
    }
    const unreachable = await rejection(verifierFor(await deadUrl(), { clientSecret: secret }).verify(TOKEN))
    expectNoTraceOf(unreachable, TOKEN, [secret])
  })

  it('refusesBadOptionsAtConstruction', () => {
    const base = {
      endpoint: 'https://as.example/introspect',
      clientId: 'c',
      clientSecret: 's',
      audience: AUDIENCE,
    }
    expect(() => introspectionVerifier(base)).not.toThrow()
    expect(() => introspectionVerifier({ ...base, endpoint: 'as.example/introspect' })).toThrow(TypeError)
    expect(() => introspectionVerifier({ ...base, endpoint: 'ftp://as.example/' })).toThrow(TypeError)
    expect(() => introspectionVerifier({ ...base, clientSecret: '' })).toThrow(TypeError)
    expect(() => introspectionVerifier({ ...base, audience: '' })).toThrow(TypeError)
    expect(() => introspectionVerifier({ ...base, maxCacheEntries: 0 })).toThrow(RangeError)
    expect(() => introspectionVerifier({ ...base, cacheTtlMs: -1 })).toThrow(RangeError)
    expect(() => introspectionVerifier({ ...base, timeoutMs: 0 })).toThrow(RangeError)
    expect(() => introspectionVerifier({ ...base, clockToleranceSec: 301 })).toThrow(RangeError)
  })
})
