/**
 * @module jwt-verifier.test
 * The JWT verifier against tokens signed by real keys, a local JWKS and a fixed clock: each way a
 * token can be wrong is refused with its own reason, and no refusal carries the token.
 */
import { exportSPKI, SignJWT } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { deadUrl } from './http-server.fixture.ts'
import { type JwtVerifierOptions, jwtVerifier } from './jwt-verifier.ts'
import {
  AUDIENCE,
  expectNoTraceOf,
  ISSUER,
  jwksOf,
  NOW,
  NOW_MS,
  rejection,
  signToken,
  type TestKey,
  testKey,
  unsignedToken,
} from './signing.fixture.ts'

let key: TestKey
let other: TestKey
let ecKey: TestKey

beforeAll(async () => {
  ;[key, other, ecKey] = await Promise.all([testKey('key-1'), testKey('key-2'), testKey('ec-1', 'ES256')])
})

function verifier(options: Partial<JwtVerifierOptions> = {}) {
  return jwtVerifier({
    issuer: ISSUER,
    audience: AUDIENCE,
    jwks: jwksOf(key, ecKey),
    now: () => NOW_MS,
    ...options,
  })
}

async function reasonFor(token: string | Promise<string>, options: Partial<JwtVerifierOptions> = {}) {
  return (await rejection(verifier(options).verify(await token))).reason
}

describe('jwtVerifier', () => {
  it('verifiesAValidTokenAndReportsWhatItSays', async () => {
    const token = await signToken(key, { scope: 'tools:read tools:call', client_id: 'client-1', jti: 'j-1' })
    expect(await verifier().verify(token)).toEqual({
      issuer: ISSUER,
      subject: 'user-1',
      clientId: 'client-1',
      scopes: ['tools:read', 'tools:call'],
      audience: [AUDIENCE],
      expiresAt: NOW + 300,
      jkt: undefined,
      claims: {
        iss: ISSUER,
        aud: AUDIENCE,
        sub: 'user-1',
        iat: NOW,
        exp: NOW + 300,
        scope: 'tools:read tools:call',
        client_id: 'client-1',
        jti: 'j-1',
      },
    })
  })

  it('verifiesAnEcdsaSignedToken', async () => {
    const token = await signToken(ecKey)
    expect((await verifier().verify(token)).subject).toBe('user-1')
  })

  it('acceptsAnAudienceArrayContainingTheResource', async () => {
    const token = await signToken(key, { aud: ['https://other.example', AUDIENCE] })
    expect((await verifier().verify(token)).audience).toEqual(['https://other.example', AUDIENCE])
  })

  it('refusesAnExpiredToken', async () => {
    expect(await reasonFor(signToken(key, { iat: NOW - 600, exp: NOW - 31 }))).toBe('expired')
  })

  it('acceptsATokenExpiredWithinTheClockTolerance', async () => {
    const token = await signToken(key, { iat: NOW - 600, exp: NOW - 20 })
    expect((await verifier().verify(token)).expiresAt).toBe(NOW - 20)
    expect(await reasonFor(token, { clockToleranceSec: 0 })).toBe('expired')
  })

  it('refusesATokenNotYetValid', async () => {
    expect(await reasonFor(signToken(key, { nbf: NOW + 60 }))).toBe('not-yet-valid')
  })

  it('refusesATokenIssuedInTheFuture', async () => {
    expect(await reasonFor(signToken(key, { iat: NOW + 60, exp: NOW + 600 }))).toBe('issued-in-future')
    const withinTolerance = await signToken(key, { iat: NOW + 20 })
    expect((await verifier().verify(withinTolerance)).subject).toBe('user-1')
  })

  it('refusesATokenForAnotherResource', async () => {
    expect(await reasonFor(signToken(key, { aud: 'https://other.example/mcp' }))).toBe('wrong-audience')
    expect(await reasonFor(signToken(key, { aud: [`${AUDIENCE}/`] }))).toBe('wrong-audience')
  })

  it('refusesATokenFromAnotherIssuer', async () => {
    expect(await reasonFor(signToken(key, { iss: 'https://evil.example' }))).toBe('wrong-issuer')
  })

  it('refusesAnUnsignedToken', async () => {
    expect(await reasonFor(unsignedToken())).toBe('algorithm-not-allowed')
  })

  it('refusesAnHmacTokenKeyedWithThePublicKey', async () => {
    // The classic confusion: the public key's PEM bytes as an HMAC secret, under the real key's kid.
    const secret = new TextEncoder().encode(await exportSPKI(key.publicKey))
    const token = await new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'admin', exp: NOW + 300 })
      .setProtectedHeader({ alg: 'HS256', kid: key.kid })
      .sign(secret)
    expect(await reasonFor(token)).toBe('algorithm-not-allowed')
  })

  it('refusesAnAlgorithmLeftOutOfTheAllowList', async () => {
    expect(await reasonFor(signToken(ecKey), { algorithms: ['RS256'] })).toBe('algorithm-not-allowed')
  })

  it('refusesATokenWithoutExp', async () => {
    expect(await reasonFor(signToken(key, { exp: undefined }))).toBe('missing-claim')
  })

  it('refusesATokenWithoutAnIssuerOrAudience', async () => {
    expect(await reasonFor(signToken(key, { iss: undefined }))).toBe('missing-claim')
    expect(await reasonFor(signToken(key, { aud: undefined }))).toBe('missing-claim')
  })

  it('refusesAWrongTypeWhenATypeIsRequired', async () => {
    expect(await reasonFor(signToken(key, {}, { typ: 'JWT' }), { type: 'at+jwt' })).toBe('wrong-type')
    expect(await reasonFor(signToken(key), { type: 'at+jwt' })).toBe('wrong-type')
  })

  it('acceptsTheRequiredTypeInAnyCaseAndWithTheApplicationPrefix', async () => {
    for (const typ of ['at+jwt', 'AT+JWT', 'application/at+jwt']) {
      const token = await signToken(key, {}, { typ })
      expect((await verifier({ type: 'at+jwt' }).verify(token)).subject).toBe('user-1')
    }
  })

  it('refusesATokenMissingARequiredClaim', async () => {
    expect(await reasonFor(signToken(key), { requiredClaims: ['jti'] })).toBe('missing-claim')
    const token = await signToken(key, { jti: 'j-1' })
    expect((await verifier({ requiredClaims: ['jti'] }).verify(token)).claims['jti']).toBe('j-1')
  })

  it('refusesATokenWhoseSignatureDoesNotMatch', async () => {
    const forged = await signToken(other, {}, { kid: key.kid })
    expect(await reasonFor(forged)).toBe('bad-signature')
    const [header, , signature] = (await signToken(key)).split('.')
    const tamperedPayload = Buffer.from(
      JSON.stringify({ iss: ISSUER, aud: AUDIENCE, sub: 'admin', exp: NOW + 300 }),
    )
    expect(await reasonFor(`${header}.${tamperedPayload.toString('base64url')}.${signature}`)).toBe(
      'bad-signature',
    )
  })

  it('refusesATokenSignedByAnUnknownKey', async () => {
    expect(await reasonFor(signToken(other))).toBe('unknown-key')
  })

  it('triesEveryCandidateKeyWhenTheTokenNamesNoKid', async () => {
    const withoutKid = (k: TestKey) => ({ ...k.jwk, kid: undefined })
    const jwks = { keys: [withoutKid(other), withoutKid(key)] }
    const token = await signToken(key, {}, { kid: undefined })
    expect((await verifier({ jwks }).verify(token)).subject).toBe('user-1')
    const stranger = await signToken(await testKey('k-3'), {}, { kid: undefined })
    expect(await reasonFor(stranger, { jwks })).toBe('bad-signature')
  })

  it('refusesTokensThatAreNotThreeBase64urlSegments', async () => {
    const valid = await signToken(key)
    for (const token of ['', 'abc', 'a.b', 'a.b.c.d', `${valid} `, valid.replace('.', '.+'), '..']) {
      expect(await reasonFor(token)).toBe('malformed')
    }
    expect(await reasonFor('eyJub3QiOiJqc29uIn0.bm90IGpzb24.c2ln')).toBe('malformed')
  })

  it('refusesATokenLongerThan16KiB', async () => {
    expect(await reasonFor(signToken(key, { padding: 'x'.repeat(16 * 1024) }))).toBe('malformed')
  })

  it('refusesAnEmptyOrNonStringSubject', async () => {
    expect(await reasonFor(signToken(key, { sub: '' }))).toBe('malformed')
    expect(await reasonFor(signToken(key, { sub: 42 }))).toBe('malformed')
    expect((await verifier().verify(await signToken(key, { sub: undefined }))).subject).toBeUndefined()
  })

  it('readsScopesFromScopeOrFromScp', async () => {
    const scopes = async (claims: Record<string, unknown>) =>
      (await verifier().verify(await signToken(key, claims))).scopes
    expect(await scopes({ scope: 'a  b a' })).toEqual(['a', 'b'])
    expect(await scopes({ scp: ['a', 'b'] })).toEqual(['a', 'b'])
    expect(await scopes({ scp: 'a b' })).toEqual(['a', 'b'])
    expect(await scopes({ scope: 'a', scp: ['b'] })).toEqual(['a'])
    expect(await scopes({})).toEqual([])
    expect(await reasonFor(signToken(key, { scp: ['a', 1] }))).toBe('malformed')
    expect(await reasonFor(signToken(key, { scope: ['a'] }))).toBe('malformed')
  })

  it('readsTheClientFromClientIdElseAzp', async () => {
    const clientId = async (claims: Record<string, unknown>) =>
      (await verifier().verify(await signToken(key, claims))).clientId
    expect(await clientId({ client_id: 'c-1', azp: 'c-2' })).toBe('c-1')
    expect(await clientId({ azp: 'c-2' })).toBe('c-2')
    expect(await clientId({})).toBeUndefined()
  })

  it('readsTheBoundKeyThumbprintFromCnf', async () => {
    const jkt = async (claims: Record<string, unknown>) =>
      (await verifier().verify(await signToken(key, claims))).jkt
    expect(await jkt({ cnf: { jkt: 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs' } })).toBe(
      'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs',
    )
    expect(await jkt({ cnf: { 'x5t#S256': 'abc' } })).toBeUndefined()
    expect(await jkt({})).toBeUndefined()
    expect(await reasonFor(signToken(key, { cnf: 'jkt' }))).toBe('malformed')
  })

  it('neverPutsTheTokenOrItsClaimsInARejection', async () => {
    const marker = 'marker-7f3c9a'
    const verifierUnavailable = verifier({ jwks: new URL('/jwks', await deadUrl()), jwksTimeoutMs: 500 })
    const cases: [string, ReturnType<typeof verifier>][] = [
      [await signToken(key, { sub: marker, exp: NOW - 100 }), verifier()],
      [await signToken(key, { sub: marker, aud: 'https://other.example' }), verifier()],
      [await signToken(key, { sub: marker, iss: marker }), verifier()],
      [await signToken(key, { sub: marker, nbf: NOW + 100 }), verifier()],
      [await signToken(key, { sub: marker, exp: undefined }), verifier()],
      [await signToken(other, { sub: marker }, { kid: key.kid }), verifier()],
      [await signToken(other, { sub: marker }), verifier()],
      [await signToken(key, { sub: marker }, { typ: marker }), verifier({ type: 'at+jwt' })],
      [unsignedToken({ sub: marker }), verifier()],
      [`${marker}.${marker}.${marker}`, verifier()],
      [await signToken(key, { sub: marker }), verifierUnavailable],
    ]
    const reasons = []
    for (const [token, v] of cases) {
      const error = await rejection(v.verify(token))
      reasons.push(error.reason)
      expect(error.message).toBe(`Access token rejected: ${error.reason}.`)
      expectNoTraceOf(error, token, [marker])
    }
    expect(reasons).toEqual([
      'expired',
      'wrong-audience',
      'wrong-issuer',
      'not-yet-valid',
      'missing-claim',
      'bad-signature',
      'unknown-key',
      'wrong-type',
      'algorithm-not-allowed',
      'malformed',
      'verifier-unavailable',
    ])
  })

  it('refusesUnsafeAlgorithmsAtConstruction', () => {
    const build = (algorithms: string[]) => () => verifier({ algorithms })
    for (const algorithms of [['none'], ['RS256', 'NONE'], ['HS256'], ['RS256', 'hs512'], [], ['RS1']]) {
      expect(build(algorithms)).toThrow(TypeError)
    }
    expect(build(['ES256', 'EdDSA'])).not.toThrow()
  })

  it('refusesOutOfBoundsOptionsAtConstruction', () => {
    expect(() => verifier({ clockToleranceSec: 301 })).toThrow(RangeError)
    expect(() => verifier({ clockToleranceSec: -1 })).toThrow(RangeError)
    expect(() => verifier({ jwksCooldownMs: 60_000, jwksCacheMaxAgeMs: 1_000 })).toThrow(RangeError)
    expect(() => verifier({ jwksTimeoutMs: 0 })).toThrow(RangeError)
    expect(() => verifier({ issuer: '' })).toThrow(TypeError)
    expect(() => verifier({ audience: '' })).toThrow(TypeError)
  })
})
