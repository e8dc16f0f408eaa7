/**
 * @module dpop-proof.test
 * The proof's form, header, key and signature: everything decided before its claims are read.
 */
import { base64url, CompactSign, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import {
  checkFor,
  clientKey,
  compact,
  expectRejection,
  MAX_PROOF_PADDING,
  NOW_SEC,
  signProof,
  TOKEN,
  tokenHash,
  URL_,
} from './dpop-proof.fixture.ts'
import { DpopRejectedError, MAX_DPOP_PROOF_LENGTH, verifyDpopProof } from './dpop-proof.ts'

const es256 = await clientKey('ES256')
const rs256 = await clientKey('RS256')
const claims = { jti: 'crafted', htm: 'GET', htu: URL_, iat: NOW_SEC, ath: tokenHash(TOKEN) }

describe('verifyDpopProof: form and header', () => {
  it('acceptsAValidProofAndReturnsItsKeyThumbprintJtiAndIat', async () => {
    const proof = await signProof(es256, { claims: { jti: 'one-time' } })
    expect(await verifyDpopProof(checkFor(es256, proof))).toEqual({
      jkt: es256.jkt,
      jti: 'one-time',
      iat: NOW_SEC,
    })
  })

  it('acceptsAValidRsaProof', async () => {
    const proof = await signProof(rs256)
    expect((await verifyDpopProof(checkFor(rs256, proof))).jkt).toBe(rs256.jkt)
  })

  it('acceptsAProofForAnUnboundTokenWhenNoThumbprintIsExpected', async () => {
    const proof = await signProof(es256)
    expect((await verifyDpopProof(checkFor(es256, proof, { expectedJkt: undefined }))).jkt).toBe(es256.jkt)
  })

  it('refusesAProofOfAnotherType', async () => {
    const proof = await signProof(es256, { header: { typ: 'JWT' } })
    await expectRejection(checkFor(es256, proof), 'wrong-type')
  })

  it('refusesAProofWithoutAType', async () => {
    const proof = await signProof(es256, { header: { typ: undefined } })
    await expectRejection(checkFor(es256, proof), 'wrong-type')
  })

  it('refusesAProofWhoseTypeIsOnlyEquivalent', async () => {
    const proof = await signProof(es256, { header: { typ: 'application/dpop+jwt' } })
    await expectRejection(checkFor(es256, proof), 'wrong-type')
  })

  it('refusesAnAlgorithmOutsideTheAllowList', async () => {
    const proof = await signProof(rs256)
    await expectRejection(checkFor(rs256, proof, { algorithms: ['ES256'] }), 'algorithm-not-allowed')
  })

  it('refusesAnUnsignedProofEvenWhenNoneIsAllowed', async () => {
    const proof = compact({ typ: 'dpop+jwt', alg: 'none', jwk: es256.publicJwk }, claims)
    await expectRejection(checkFor(es256, proof, { algorithms: ['none', 'ES256'] }), 'algorithm-not-allowed')
  })

  it('refusesAnHmacProofEvenWhenHmacIsAllowed', async () => {
    const secret = new Uint8Array(32).fill(7)
    const jwk = { kty: 'oct', k: base64url.encode(secret) }
    const proof = await new SignJWT(claims)
      .setProtectedHeader({ typ: 'dpop+jwt', alg: 'HS256', jwk })
      .sign(secret)
    await expectRejection(checkFor(es256, proof, { algorithms: ['HS256', 'ES256'] }), 'algorithm-not-allowed')
  })

  it('refusesAnEmbeddedPrivateKey', async () => {
    const proof = await signProof(es256, { header: { jwk: es256.privateJwk } })
    await expectRejection(checkFor(es256, proof), 'private-key')
  })

  it('refusesAnEmbeddedRsaPrivateKey', async () => {
    const proof = await signProof(rs256, { header: { jwk: rs256.privateJwk } })
    await expectRejection(checkFor(rs256, proof), 'private-key')
  })

  it('refusesAnEmbeddedSymmetricKey', async () => {
    const proof = await signProof(es256, {
      header: { jwk: { kty: 'oct', k: base64url.encode('0123456789') } },
    })
    await expectRejection(checkFor(es256, proof), 'private-key')
  })

  it('refusesAProofWithoutAnEmbeddedKey', async () => {
    const proof = await signProof(es256, { header: { jwk: undefined } })
    await expectRejection(checkFor(es256, proof), 'malformed')
  })

  it('refusesAnEmbeddedKeyThatIsNotAnObject', async () => {
    const proof = compact({ typ: 'dpop+jwt', alg: 'ES256', jwk: 'key' }, claims, 'c2ln')
    await expectRejection(checkFor(es256, proof), 'malformed')
  })

  it('refusesAnEmbeddedKeyOfAnotherAlgorithm', async () => {
    const proof = await signProof(es256, { header: { jwk: rs256.publicJwk } })
    await expectRejection(checkFor(es256, proof), 'malformed')
  })
})

describe('verifyDpopProof: signature', () => {
  it('refusesATamperedPayload', async () => {
    const [header, , signature] = (await signProof(es256)).split('.')
    const payload = base64url.encode(JSON.stringify({ ...claims, htm: 'DELETE' }))
    await expectRejection(
      checkFor(es256, `${header}.${payload}.${signature}`, { method: 'DELETE' }),
      'bad-signature',
    )
  })

  it('refusesAProofSignedByAnotherKeyThanTheEmbeddedOne', async () => {
    const other = await clientKey('ES256')
    const proof = await signProof(other, { header: { jwk: es256.publicJwk } })
    await expectRejection(checkFor(es256, proof), 'bad-signature')
  })

  it('refusesAProofWithoutASignature', async () => {
    const [header, payload] = (await signProof(es256)).split('.')
    await expectRejection(checkFor(es256, `${header}.${payload}.`), 'bad-signature')
  })
})

describe('verifyDpopProof: structure', () => {
  it('refusesAnOversizedProofBeforeParsingIt', async () => {
    const proof = await signProof(es256, { claims: { pad: 'x'.repeat(MAX_PROOF_PADDING) } })
    expect(proof.length).toBeGreaterThan(MAX_DPOP_PROOF_LENGTH)
    await expectRejection(checkFor(es256, proof), 'malformed')
    await expectRejection(checkFor(es256, '!'.repeat(MAX_DPOP_PROOF_LENGTH + 1)), 'malformed')
  })

  it('refusesSomethingThatIsNotAJws', async () => {
    await expectRejection(checkFor(es256, 'not-a-proof'), 'malformed')
    await expectRejection(checkFor(es256, ''), 'malformed')
    await expectRejection(checkFor(es256, 'a.b.c'), 'malformed')
  })

  it('refusesASignedPayloadThatIsNotAJsonObject', async () => {
    const proof = await new CompactSign(new TextEncoder().encode('[1]'))
      .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: es256.publicJwk })
      .sign(es256.privateKey)
    await expectRejection(checkFor(es256, proof), 'malformed')
  })

  it('refusesAProofWithoutJti', async () => {
    const proof = await signProof(es256, { claims: { jti: undefined } })
    await expectRejection(checkFor(es256, proof), 'malformed')
  })

  it('refusesAnEmptyJti', async () => {
    const proof = await signProof(es256, { claims: { jti: '' } })
    await expectRejection(checkFor(es256, proof), 'malformed')
  })

  it('refusesAJtiLongerThan256Characters', async () => {
    const proof = await signProof(es256, { claims: { jti: 'j'.repeat(257) } })
    await expectRejection(checkFor(es256, proof), 'malformed')
    const longest = await signProof(es256, { claims: { jti: 'j'.repeat(256) } })
    expect((await verifyDpopProof(checkFor(es256, longest))).jti).toHaveLength(256)
  })

  it('refusesANumericJti', async () => {
    const proof = await signProof(es256, { claims: { jti: 42 } })
    await expectRejection(checkFor(es256, proof), 'malformed')
  })

  it('refusesAProofWithoutHtm', async () => {
    const proof = await signProof(es256, { claims: { htm: undefined } })
    await expectRejection(checkFor(es256, proof), 'malformed')
  })

  it('refusesAProofWithoutHtu', async () => {
    const proof = await signProof(es256, { claims: { htu: undefined } })
    await expectRejection(checkFor(es256, proof), 'malformed')
  })

  it('refusesAProofWithoutIat', async () => {
    const proof = await signProof(es256, { claims: { iat: undefined } })
    await expectRejection(checkFor(es256, proof), 'malformed')
  })

  it('refusesAnIatThatIsNotANumber', async () => {
    const proof = await signProof(es256, { claims: { iat: String(NOW_SEC) } })
    await expectRejection(checkFor(es256, proof), 'malformed')
  })

  it('refusesAProofWithoutAth', async () => {
    const proof = await signProof(es256, { claims: { ath: undefined } })
    await expectRejection(checkFor(es256, proof), 'malformed')
  })
})

describe('verifyDpopProof: settings', () => {
  it('throwsATypeErrorRatherThanARefusalWhenTheRequestUrlIsNotAbsolute', async () => {
    const check = checkFor(es256, await signProof(es256), { url: '/mcp' })
    await expect(verifyDpopProof(check)).rejects.toThrow(TypeError)
  })

  it('throwsARangeErrorForANonPositiveMaxAge', async () => {
    const check = checkFor(es256, await signProof(es256), { maxAgeSec: 0 })
    await expect(verifyDpopProof(check)).rejects.toThrow(RangeError)
  })

  it('throwsARangeErrorForANegativeClockTolerance', async () => {
    const check = checkFor(es256, await signProof(es256), { clockToleranceSec: -1 })
    await expect(verifyDpopProof(check)).rejects.toThrow(RangeError)
  })

  it('namesOnlyTheReasonInTheErrorMessage', async () => {
    const error = new DpopRejectedError('replayed')
    expect(error.message).toBe('DPoP proof rejected: replayed')
    expect(error.name).toBe('DpopRejectedError')
    expect(error).toBeInstanceOf(Error)
  })
})
