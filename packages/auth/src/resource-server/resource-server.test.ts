import type { HeaderView } from '@tessera/core/http'
import { describe, expect, it } from 'vitest'
import type { TokenVerifier, VerifiedToken } from '../verifiers/token-verifier.ts'
import { oauthResourceServer } from './resource-server.ts'

/** A verifier that accepts one token and says what it is given to say. */
function verifierOf(token: Partial<VerifiedToken>): TokenVerifier {
  return {
    verify: async () => ({
      issuer: 'https://idp.example',
      subject: 'ann',
      clientId: 'app',
      scopes: [],
      audience: ['https://mcp.example/mcp'],
      expiresAt: undefined,
      jkt: undefined,
      claims: {},
      ...token,
    }),
  }
}

function headers(values: Record<string, string>): HeaderView {
  return { get: (name) => values[name], isRepeated: () => false }
}

const base = { resource: 'https://mcp.example/mcp', authorizationServers: ['https://idp.example'] }

describe('oauthResourceServer', () => {
  it('grantsImpliedScopesTransitively', async () => {
    const server = oauthResourceServer({
      ...base,
      verifier: verifierOf({ scopes: ['ops:admin'] }),
      scopeHierarchy: { 'ops:admin': ['ops:write'], 'ops:write': ['ops:read'] },
    })
    const auth = await server.authenticate({
      method: 'POST',
      target: '/mcp',
      headers: headers({ authorization: 'Bearer abc.def.ghi' }),
    })
    expect(auth?.scopes).toEqual(['ops:admin', 'ops:write', 'ops:read'])
    expect(auth).not.toHaveProperty('token')
  })

  it('servesTheMetadataAtTheRootOnlyForAResourceAtTheRoot', () => {
    const server = oauthResourceServer({
      ...base,
      resource: 'https://mcp.example/',
      verifier: verifierOf({}),
    })
    expect(Object.keys(server.documents ?? {})).toEqual(['/.well-known/oauth-protected-resource'])
    expect(server.metadataUrl).toBe('https://mcp.example/.well-known/oauth-protected-resource')
  })

  it('refusesOptionsThatCannotWork', () => {
    const verifier = verifierOf({})
    expect(() => oauthResourceServer({ ...base, resource: 'https://mcp.example/mcp#x', verifier })).toThrow(
      /fragment/,
    )
    expect(() => oauthResourceServer({ ...base, resource: '/mcp', verifier })).toThrow(/absolute URL/)
    expect(() => oauthResourceServer({ ...base, authorizationServers: [], verifier })).toThrow(/at least one/)
    // A JavaScript caller can leave out the replay store the types require.
    // @ts-expect-error: dpop without its replay store
    expect(() => oauthResourceServer({ ...base, verifier, dpop: {} })).toThrow(/dpop.replay/)
  })

  it('refusesAMisspelledOptionNamingTheOneItMeant', () => {
    const verifier = verifierOf({})
    // Built apart from the call, as a caller's options often are: the compiler checks no extra names then.
    const misspelled = { ...base, verifier, scopes: ['ops:read'] }
    expect(() => oauthResourceServer(misspelled)).toThrow(
      new TypeError("oauthResourceServer: unknown option 'scopes' (did you mean 'scopesSupported'?)."),
    )
    const replay = { claim: async () => ({ kind: 'claimed', fence: 'f' }) as const }
    const dpop = { replay, maxAge: 30 }
    expect(() => oauthResourceServer({ ...base, verifier, dpop })).toThrow(
      "oauthResourceServer: unknown option 'dpop.maxAge' (did you mean 'dpop.maxAgeSec'?).",
    )
  })
})
