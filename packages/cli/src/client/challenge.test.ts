/**
 * @module challenge.test
 * Reading `WWW-Authenticate`: several challenges in one header, quoted strings with commas and
 * escapes, unquoted values, a token68 challenge, and a header it cannot read to the end.
 */
import { describe, expect, it } from 'vitest'
import { challengeOf, parseChallenges } from './challenge.ts'

describe('parseChallenges', () => {
  it('readsABearerAndADpopChallengeOfOneHeader', () => {
    const header =
      'Bearer resource_metadata="http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp", ' +
      'scope="ops:read ops:rollback", DPoP algs="ES256 RS256", resource_metadata="http://x/m"'
    const challenges = parseChallenges(header)
    expect(challenges).toEqual([
      {
        scheme: 'Bearer',
        params: {
          resource_metadata: 'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp',
          scope: 'ops:read ops:rollback',
        },
      },
      { scheme: 'DPoP', params: { algs: 'ES256 RS256', resource_metadata: 'http://x/m' } },
    ])
    expect(challengeOf(challenges, 'dpop')?.params.algs).toBe('ES256 RS256')
  })

  it('unescapesQuotedStringsAndReadsUnquotedValuesAndNamesInLowercase', () => {
    expect(
      parseChallenges('Bearer Error=invalid_token, error_description="bad, \\"old\\" token", realm=x'),
    ).toEqual([
      {
        scheme: 'Bearer',
        params: { error: 'invalid_token', error_description: 'bad, "old" token', realm: 'x' },
      },
    ])
  })

  it('keepsAToken68ChallengeAndReadsTheOneAfterIt', () => {
    expect(parseChallenges('Negotiate YWJj==, Bearer scope="a"')).toEqual([
      { scheme: 'Negotiate', params: {} },
      { scheme: 'Bearer', params: { scope: 'a' } },
    ])
  })

  it('keepsWhatCameBeforeAPartItCannotRead', () => {
    expect(parseChallenges('Bearer scope="a", error="unterminated')).toEqual([
      { scheme: 'Bearer', params: { scope: 'a' } },
    ])
    expect(parseChallenges('')).toEqual([])
  })
})
