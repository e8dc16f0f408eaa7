/**
 * @module issuer-verifiers.test
 * Tokens of several issuers on one resource server: the issuer a JWT claims picks its verifier
 * and is trusted for nothing more (a token claiming one issuer but signed with another's key is
 * refused by the verifier it picked), an unknown or missing issuer is refused, an opaque token
 * goes to the introspecting issuer only when one is named, and a verifier that answers for
 * another issuer is refused too.
 */
import { describe, expect, it } from 'vitest'
import { oauthResourceServer } from '../resource-server/resource-server.ts'
import { issuerVerifiers } from './issuer-verifiers.ts'
import { jwtVerifier } from './jwt-verifier.ts'
import { AUDIENCE, jwksOf, NOW_MS, rejection, signToken, type TestKey, testKey } from './signing.fixture.ts'
import type { TokenVerifier, VerifiedToken } from './token-verifier.ts'

const ACME = 'https://acme.example'
const GLOBEX = 'https://globex.example'

const verifierOf = (issuer: string, key: TestKey) =>
  jwtVerifier({ issuer, audience: AUDIENCE, jwks: jwksOf(key), now: () => NOW_MS })

/** A verifier of opaque tokens that answers for `issuer`. */
const introspecting = (issuer: string): TokenVerifier => ({
  verify: async (token) =>
    ({
      issuer,
      subject: token,
      clientId: undefined,
      scopes: [],
      audience: [AUDIENCE],
      expiresAt: undefined,
      jkt: undefined,
      claims: {},
    }) satisfies VerifiedToken,
})

describe('issuerVerifiers', () => {
  it('verifiesEachTokenWithTheVerifierOfItsIssuer', async () => {
    const [acme, globex] = [await testKey('a'), await testKey('g')]
    const verifier = issuerVerifiers({
      issuers: { [ACME]: verifierOf(ACME, acme), [GLOBEX]: verifierOf(GLOBEX, globex) },
    })
    expect(verifier.issuers).toEqual([ACME, GLOBEX])
    const fromAcme = await verifier.verify(await signToken(acme, { iss: ACME, sub: 'ann' }))
    const fromGlobex = await verifier.verify(await signToken(globex, { iss: GLOBEX, sub: 'ann' }))
    expect([fromAcme.issuer, fromAcme.subject]).toEqual([ACME, 'ann'])
    expect([fromGlobex.issuer, fromGlobex.subject]).toEqual([GLOBEX, 'ann'])
  })

  it('trustsTheClaimedIssuerOnlyToPickAVerifier', async () => {
    const [acme, globex] = [await testKey('a'), await testKey('g')]
    const verifier = issuerVerifiers({
      issuers: { [ACME]: verifierOf(ACME, acme), [GLOBEX]: verifierOf(GLOBEX, globex) },
    })
    // Claims Globex, signed with Acme's key: Globex's verifier knows no such key.
    expect((await rejection(verifier.verify(await signToken(acme, { iss: GLOBEX })))).reason).toBe(
      'unknown-key',
    )
    expect(
      (await rejection(verifier.verify(await signToken(acme, { iss: 'https://evil.example' })))).reason,
    ).toBe('wrong-issuer')
    expect((await rejection(verifier.verify(await signToken(acme, { iss: undefined })))).reason).toBe(
      'missing-claim',
    )
    expect((await rejection(verifier.verify('a.b.c'))).reason).toBe('malformed')
  })

  it('sendsAnOpaqueTokenToTheIntrospectingIssuerOnlyWhenOneIsNamed', async () => {
    const acme = await testKey('a')
    const issuers = { [ACME]: verifierOf(ACME, acme), [GLOBEX]: introspecting(GLOBEX) }
    expect((await rejection(issuerVerifiers({ issuers }).verify('opaque-token'))).reason).toBe('malformed')
    const verified = await issuerVerifiers({ issuers, opaque: GLOBEX }).verify('opaque-token')
    expect([verified.issuer, verified.subject]).toEqual([GLOBEX, 'opaque-token'])
  })

  it('refusesAVerifierThatAnswersForAnotherIssuer', async () => {
    const verifier = issuerVerifiers({ issuers: { [ACME]: introspecting(GLOBEX) }, opaque: ACME })
    expect((await rejection(verifier.verify('opaque-token'))).reason).toBe('wrong-issuer')
  })

  it('isRefusedWhenItNamesNoIssuerOrTheMetadataLeavesOneOut', async () => {
    expect(() => issuerVerifiers({ issuers: {} })).toThrow('issuers must name at least one issuer')
    expect(() => issuerVerifiers({ issuers: { [ACME]: introspecting(ACME) }, opaque: GLOBEX })).toThrow(
      `opaque names '${GLOBEX}', which is not among issuers`,
    )
    const verifier = issuerVerifiers({
      issuers: { [ACME]: introspecting(ACME), [GLOBEX]: introspecting(GLOBEX) },
    })
    expect(() => oauthResourceServer({ resource: AUDIENCE, authorizationServers: [ACME], verifier })).toThrow(
      `authorizationServers must list every issuer the verifier accepts; missing: ${GLOBEX}.`,
    )
  })
})
