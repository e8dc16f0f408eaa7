/**
 * @module issuer-verifiers
 * One verifier for the tokens of several authorization servers (a realm or a tenant each, with
 * its own keys or introspection endpoint and its own audience): the token's issuer picks the
 * verifier, and that verifier decides. The issuer is read from a JWT's payload before anything is
 * verified, so it is trusted for that choice only: the verifier picked checks the signature and
 * every claim against its own issuer, and what it verified must name the issuer that picked it.
 * A token that is no JWT goes to the verifier of the `opaque` issuer (the one that introspects
 * such tokens), or is refused. Principals stay apart by issuer: the same `sub` from two issuers
 * is two callers.
 */
import { assertKnownOptions, type OptionNames } from '@tessera/core/ports'
import { decodeJwt } from 'jose'
import {
  MAX_TOKEN_LENGTH,
  TokenRejectedError,
  type TokenVerifier,
  type VerifiedToken,
} from './token-verifier.ts'

/** The issuers a resource server accepts, each with the verifier of its tokens. */
export interface IssuerVerifiersOptions {
  /** Each issuer (its `iss`, exactly) and the verifier of its tokens: `jwtVerifier()`, `introspectionVerifier()`, or your own. */
  issuers: Readonly<Record<string, TokenVerifier>>
  /** The issuer whose verifier takes the tokens that are not JWTs (opaque, introspected); default: none, such tokens are refused. */
  opaque?: string
}

/** A verifier that picks, by the token's issuer, the verifier of that issuer. */
export interface IssuerVerifiers extends TokenVerifier {
  /** The issuers accepted: `oauthResourceServer` checks its metadata lists each of them. */
  readonly issuers: readonly string[]
}

const OPTION_NAMES = { issuers: true, opaque: true } as const satisfies OptionNames<IssuerVerifiersOptions>

/**
 * Accepts the tokens of several issuers, each verified by its own verifier.
 *
 * @example
 * ```ts
 * import { introspectionVerifier, issuerVerifiers, jwtVerifier, oauthResourceServer } from '@tessera/auth'
 *
 * const resource = 'https://mcp.example.com/mcp'
 * const acme = 'https://login.example.com/realms/acme'
 * const globex = 'https://globex.auth.example'
 * const auth = oauthResourceServer({
 *   resource,
 *   authorizationServers: [acme, globex],
 *   verifier: issuerVerifiers({
 *     issuers: {
 *       [acme]: jwtVerifier({ issuer: acme, audience: resource, jwks: new URL(`${acme}/protocol/openid-connect/certs`) }),
 *       [globex]: introspectionVerifier({
 *         endpoint: new URL(`${globex}/oauth2/introspect`),
 *         issuer: globex,
 *         audience: resource,
 *         clientId: 'mcp',
 *         clientSecret: process.env.GLOBEX_SECRET ?? '',
 *       }),
 *     },
 *     opaque: globex,
 *   }),
 * })
 * ```
 */
export function issuerVerifiers(options: IssuerVerifiersOptions): IssuerVerifiers {
  assertKnownOptions(options, OPTION_NAMES, 'issuerVerifiers', { required: true })
  const byIssuer = new Map(Object.entries(options.issuers ?? {}))
  if (byIssuer.size === 0) throw new TypeError('issuerVerifiers: issuers must name at least one issuer.')
  for (const [issuer, verifier] of byIssuer) {
    if (issuer === '') throw new TypeError('issuerVerifiers: an issuer must not be empty.')
    if (typeof verifier?.verify !== 'function')
      throw new TypeError(`issuerVerifiers: the verifier of '${issuer}' needs a verify(token) method.`)
  }
  const opaque = options.opaque
  if (opaque !== undefined && !byIssuer.has(opaque))
    throw new TypeError(
      `issuerVerifiers: opaque names '${String(opaque).slice(0, 128)}', which is not among issuers.`,
    )
  return {
    issuers: Object.freeze([...byIssuer.keys()]),
    async verify(token: string): Promise<VerifiedToken> {
      const issuer = claimedIssuer(token) ?? opaque
      const verifier = issuer === undefined ? undefined : byIssuer.get(issuer)
      if (verifier === undefined)
        throw new TokenRejectedError(issuer === undefined ? 'malformed' : 'wrong-issuer')
      const verified = await verifier.verify(token)
      if (verified.issuer !== issuer) throw new TokenRejectedError('wrong-issuer')
      return verified
    },
  }
}

/**
 * The `iss` a JWT claims, unverified; undefined when the token is no JWT. A JWT that claims no
 * issuer (or not as a string) is refused: it cannot pick a verifier.
 */
function claimedIssuer(token: string): string | undefined {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) throw new TokenRejectedError('malformed')
  if (token.split('.').length !== 3) return undefined
  let issuer: unknown
  try {
    issuer = decodeJwt(token).iss
  } catch (error) {
    throw new TokenRejectedError('malformed', { cause: error })
  }
  if (typeof issuer !== 'string' || issuer === '') throw new TokenRejectedError('missing-claim')
  return issuer
}
