/**
 * @module dpop-proof-claims.test
 * The proof's claims: this request's method and URL, its age, the token it is about, the key the
 * token is bound to and the server's nonce.
 */
import { describe, expect, it } from 'vitest'
import {
  checkFor,
  clientKey,
  expectRejection,
  NOW,
  NOW_SEC,
  signProof,
  TOKEN,
  tokenHash,
} from './dpop-proof.fixture.ts'
import { type DpopProofCheck, proofAcceptanceWindowMs, verifyDpopProof } from './dpop-proof.ts'

const key = await clientKey('ES256')

const accepted = async (claims: Record<string, unknown>, overrides: Partial<DpopProofCheck> = {}) =>
  verifyDpopProof(checkFor(key, await signProof(key, { claims }), overrides))

const refused = async (
  reason: Parameters<typeof expectRejection>[1],
  claims: Record<string, unknown>,
  overrides: Partial<DpopProofCheck> = {},
) => expectRejection(checkFor(key, await signProof(key, { claims }), overrides), reason)

describe('verifyDpopProof: method', () => {
  it('refusesAProofForAnotherMethod', async () => {
    await refused('wrong-method', { htm: 'POST' })
  })

  it('comparesTheMethodCaseSensitively', async () => {
    await refused('wrong-method', { htm: 'get' })
  })
})

describe('verifyDpopProof: url', () => {
  it('refusesAProofForAnotherPath', async () => {
    await refused('wrong-url', { htu: 'https://mcp.example.com/other' })
  })

  it('refusesAProofForAnotherHost', async () => {
    await refused('wrong-url', { htu: 'https://evil.example.com/mcp' })
  })

  it('refusesAProofForAnotherScheme', async () => {
    await refused('wrong-url', { htu: 'http://mcp.example.com/mcp' })
  })

  it('refusesAProofForAnotherPort', async () => {
    await refused('wrong-url', { htu: 'https://mcp.example.com:8443/mcp' })
  })

  it('comparesThePathCaseSensitively', async () => {
    await refused('wrong-url', { htu: 'https://mcp.example.com/MCP' })
  })

  it('refusesAProofWhosePathOnlyDiffersByATrailingSlash', async () => {
    await refused('wrong-url', { htu: 'https://mcp.example.com/mcp/' })
  })

  it('matchesARequestUrlWithAQueryToAnHtuWithout', async () => {
    await expect(accepted({}, { url: 'https://mcp.example.com/mcp?session=1#part' })).resolves.toBeDefined()
  })

  it('ignoresTheQueryAndFragmentOfHtu', async () => {
    await expect(accepted({ htu: 'https://mcp.example.com/mcp?other=2#x' })).resolves.toBeDefined()
  })

  it('stillComparesThePathWhenQueriesDiffer', async () => {
    await refused(
      'wrong-url',
      { htu: 'https://mcp.example.com/other?a=1' },
      { url: 'https://mcp.example.com/mcp?a=1' },
    )
  })

  it('normalisesSchemeAndHostCase', async () => {
    await expect(accepted({ htu: 'HTTPS://MCP.Example.COM/mcp' })).resolves.toBeDefined()
    await expect(accepted({}, { url: 'https://MCP.EXAMPLE.com/mcp' })).resolves.toBeDefined()
  })

  it('normalisesTheDefaultPort', async () => {
    await expect(accepted({ htu: 'https://mcp.example.com:443/mcp' })).resolves.toBeDefined()
    const http = { url: 'http://mcp.example.com/mcp' }
    await expect(accepted({ htu: 'http://mcp.example.com:80/mcp' }, http)).resolves.toBeDefined()
  })

  it('refusesAnHtuThatIsNotAnAbsoluteUrl', async () => {
    await refused('malformed', { htu: '/mcp' })
  })
})

describe('verifyDpopProof: time', () => {
  it('refusesAStaleProof', async () => {
    await refused('stale', { iat: NOW_SEC - 61 })
  })

  it('acceptsAProofExactlyAsOldAsAllowed', async () => {
    await expect(accepted({ iat: NOW_SEC - 60 })).resolves.toBeDefined()
  })

  it('refusesAProofIssuedInTheFutureBeyondTheTolerance', async () => {
    await refused('issued-in-future', { iat: NOW_SEC + 6 })
  })

  it('acceptsAProofIssuedInTheFutureWithinTheTolerance', async () => {
    await expect(accepted({ iat: NOW_SEC + 5 })).resolves.toBeDefined()
  })

  it('refusesAProofWhoseExpHasPassed', async () => {
    await refused('stale', { exp: NOW_SEC - 10 })
  })

  it('refusesAProofNotYetValidByNbf', async () => {
    await refused('issued-in-future', { nbf: NOW_SEC + 60 })
  })

  it('usesTheGivenClockRatherThanTheMachines', async () => {
    const proof = await signProof(key, { claims: { iat: 1_000 } })
    await expect(verifyDpopProof(checkFor(key, proof, { now: 1_010_000 }))).resolves.toBeDefined()
    await expectRejection(checkFor(key, proof, { now: NOW }), 'stale')
  })

  it('reportsAnAcceptanceWindowOfMaxAgePlusTolerance', () => {
    expect(proofAcceptanceWindowMs({ maxAgeSec: 60, clockToleranceSec: 5 })).toBe(65_000)
  })
})

describe('verifyDpopProof: token and key', () => {
  it('refusesTheHashOfAnotherToken', async () => {
    await refused('wrong-token-hash', { ath: tokenHash('another-token') })
  })

  it('refusesAProofPresentedWithAnotherToken', async () => {
    await refused('wrong-token-hash', {}, { accessToken: 'another-token' })
  })

  it('refusesAnAthThatIsNotBase64urlOfTheHash', async () => {
    await refused('wrong-token-hash', { ath: Buffer.from(tokenHash(TOKEN), 'base64url').toString('base64') })
  })

  it('refusesATokenOutsidePrintableAscii', async () => {
    const token = 'tøken'
    await refused('wrong-token-hash', { ath: tokenHash(token) }, { accessToken: token })
  })

  it('refusesATokenBoundToAnotherKey', async () => {
    const other = await clientKey('ES256')
    await refused('key-mismatch', {}, { expectedJkt: other.jkt })
  })

  it('refusesABindingOfAnotherLength', async () => {
    await refused('key-mismatch', {}, { expectedJkt: `${key.jkt}A` })
    await refused('key-mismatch', {}, { expectedJkt: '' })
  })
})

describe('verifyDpopProof: nonce', () => {
  it('refusesAProofWithoutTheRequiredNonce', async () => {
    await refused('missing-nonce', {}, { nonce: 'server-nonce' })
  })

  it('refusesAProofWithAnotherNonce', async () => {
    await refused('wrong-nonce', { nonce: 'older-nonce' }, { nonce: 'server-nonce' })
  })

  it('refusesANonceThatIsNotAString', async () => {
    await refused('wrong-nonce', { nonce: 7 }, { nonce: '7' })
  })

  it('acceptsAProofWithTheRequiredNonce', async () => {
    await expect(accepted({ nonce: 'server-nonce' }, { nonce: 'server-nonce' })).resolves.toBeDefined()
  })

  it('asksANonceCheckWhetherTheNonceIsGood', async () => {
    const seen: string[] = []
    const nonce = {
      accepts(value: string) {
        seen.push(value)
        return value === 'good'
      },
    }
    await expect(accepted({ nonce: 'good' }, { nonce })).resolves.toBeDefined()
    await refused('wrong-nonce', { nonce: 'bad' }, { nonce })
    await refused('missing-nonce', {}, { nonce })
    expect(seen).toEqual(['good', 'bad'])
  })

  it('ignoresANonceInTheProofWhenNoneIsRequired', async () => {
    await expect(accepted({ nonce: 'anything' })).resolves.toBeDefined()
  })
})
