/**
 * @module remote-jwks.test
 * The JWT verifier with a JWKS served by a real HTTP server that counts requests: keys are cached,
 * a rotation is picked up with one fetch, and no traffic pattern (bursts of unknown kids, an
 * endpoint that fails) makes more than one fetch per cooldown.
 */
import { createRemoteJWKSet, jwtVerify } from 'jose'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { deadUrl, type Reply, sleep, startServer, type TestServer } from './http-server.fixture.ts'
import { type JwtVerifierOptions, jwtVerifier } from './jwt-verifier.ts'
import {
  AUDIENCE,
  ISSUER,
  jwksOf,
  NOW_MS,
  rejection,
  signToken,
  type TestKey,
  testKey,
} from './signing.fixture.ts'

let keyA: TestKey
let keyB: TestKey
const servers: TestServer[] = []

beforeAll(async () => {
  ;[keyA, keyB] = await Promise.all([testKey('key-a'), testKey('key-b')])
})

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function jwksServer(reply: () => Reply): Promise<TestServer> {
  const server = await startServer(reply)
  servers.push(server)
  return server
}

function verifierFor(server: TestServer | URL, options: Partial<JwtVerifierOptions> = {}) {
  const jwks = new URL('/jwks.json', server instanceof URL ? server : server.url)
  return jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks, now: () => NOW_MS, ...options })
}

/** Tokens signed by keyB under kids the server has never published. */
function strangers(count: number): Promise<string[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => signToken(keyB, {}, { kid: `ghost-${i}` })))
}

describe('remote JWKS', () => {
  it('fetchesTheKeysOnceAndCachesThem', async () => {
    const server = await jwksServer(() => ({ body: jwksOf(keyA) }))
    const verifier = verifierFor(server)
    for (let i = 0; i < 5; i++) expect((await verifier.verify(await signToken(keyA))).subject).toBe('user-1')
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/jwks.json' })
    expect(server.requests[0]?.headers.accept).toContain('application/json')
  })

  it('refetchesOnceForAnUnknownKidAndThenVerifiesWithTheRotatedKey', async () => {
    let jwks = jwksOf(keyA)
    const server = await jwksServer(() => ({ body: jwks }))
    const verifier = verifierFor(server, { jwksCooldownMs: 200 })
    await verifier.verify(await signToken(keyA))
    jwks = jwksOf(keyA, keyB)
    await sleep(250)
    const rotated = await signToken(keyB)
    expect((await verifier.verify(rotated)).subject).toBe('user-1')
    expect(server.requests).toHaveLength(2)
    await verifier.verify(rotated)
    await verifier.verify(await signToken(keyA))
    expect(server.requests).toHaveLength(2)
  })

  it('makesNoFetchForAnUnknownKidWithinTheCooldown', async () => {
    let jwks = jwksOf(keyA)
    const server = await jwksServer(() => ({ body: jwks }))
    const verifier = verifierFor(server)
    await verifier.verify(await signToken(keyA))
    jwks = jwksOf(keyA, keyB)
    expect((await rejection(verifier.verify(await signToken(keyB)))).reason).toBe('unknown-key')
    expect(server.requests).toHaveLength(1)
  })

  it('turnsABurstOfFiftyUnknownKidsIntoAtMostOneFetch', async () => {
    const server = await jwksServer(() => ({ body: jwksOf(keyA), delayMs: 50 }))
    const verifier = verifierFor(server, { jwksCooldownMs: 1_000 })
    const burst = await strangers(50)
    await verifier.verify(await signToken(keyA))
    await sleep(1_050)
    const reasons = await Promise.all(
      burst.map(async (token) => (await rejection(verifier.verify(token))).reason),
    )
    expect(new Set(reasons)).toEqual(new Set(['unknown-key']))
    expect(server.requests).toHaveLength(2)
    await Promise.all(burst.map((token) => rejection(verifier.verify(token))))
    expect(server.requests).toHaveLength(2)
  })

  it('turnsAColdBurstOfFiftyUnknownKidsIntoOneFetch', async () => {
    const server = await jwksServer(() => ({ body: jwksOf(keyA), delayMs: 50 }))
    const verifier = verifierFor(server)
    const burst = await strangers(50)
    await Promise.all(burst.map((token) => rejection(verifier.verify(token))))
    await Promise.all(burst.map((token) => rejection(verifier.verify(token))))
    expect(server.requests).toHaveLength(1)
  })

  it('reportsAnUnreachableJwksEndpointAsVerifierUnavailable', async () => {
    const verifier = verifierFor(await deadUrl())
    expect((await rejection(verifier.verify(await signToken(keyA)))).reason).toBe('verifier-unavailable')
  })

  it('reportsASlowJwksEndpointAsVerifierUnavailable', async () => {
    const server = await jwksServer(() => ({ body: jwksOf(keyA), delayMs: 2_000 }))
    const verifier = verifierFor(server, { jwksTimeoutMs: 100 })
    const started = Date.now()
    expect((await rejection(verifier.verify(await signToken(keyA)))).reason).toBe('verifier-unavailable')
    expect(Date.now() - started).toBeLessThan(1_500)
  })

  it('reportsAFailingOrGarbledJwksEndpointAsVerifierUnavailable', async () => {
    for (const reply of [
      { status: 500 },
      { body: 'not json' },
      { body: { keys: 'none' } },
      { status: 302 },
    ]) {
      const server = await jwksServer(() => reply)
      const error = await rejection(verifierFor(server).verify(await signToken(keyA)))
      expect(error.reason).toBe('verifier-unavailable')
    }
  })

  it('fetchesAtMostOncePerCooldownWhileTheEndpointFails', async () => {
    let reply: Reply = { status: 503 }
    const server = await jwksServer(() => reply)
    const verifier = verifierFor(server, { jwksCooldownMs: 1_000 })
    const token = await signToken(keyA)
    for (let i = 0; i < 20; i++) {
      expect((await rejection(verifier.verify(token))).reason).toBe('verifier-unavailable')
    }
    await Promise.all(Array.from({ length: 20 }, () => rejection(verifier.verify(token))))
    expect(server.requests).toHaveLength(1)
    reply = { body: jwksOf(keyA) }
    await sleep(1_050)
    expect((await verifier.verify(token)).subject).toBe('user-1')
    expect(server.requests).toHaveLength(2)
  })

  it('keepsVerifyingKnownKidsWhileTheEndpointFails', async () => {
    let reply: Reply = { body: jwksOf(keyA) }
    const server = await jwksServer(() => reply)
    const verifier = verifierFor(server, { jwksCooldownMs: 1_000 })
    const [known, unknown] = await Promise.all([signToken(keyA), signToken(keyB)])
    await verifier.verify(known)
    reply = { status: 500 }
    await sleep(1_050)
    expect((await rejection(verifier.verify(unknown))).reason).toBe('verifier-unavailable')
    expect((await verifier.verify(known)).subject).toBe('user-1')
    expect((await rejection(verifier.verify(unknown))).reason).toBe('verifier-unavailable')
    expect(server.requests).toHaveLength(2)
  })

  it('needsItsOwnGateBecauseJoseAloneRefetchesAfterEveryFailure', async () => {
    // The behaviour the gate exists for: jose's cooldown starts only from a successful fetch.
    const server = await jwksServer(() => ({ status: 503 }))
    const jwks = createRemoteJWKSet(new URL('/jwks.json', server.url), { cooldownDuration: 60_000 })
    const token = await signToken(keyA)
    for (let i = 0; i < 3; i++) await expect(jwtVerify(token, jwks)).rejects.toThrow()
    expect(server.requests).toHaveLength(3)
  })
})
