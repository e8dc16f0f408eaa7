/**
 * @module resource-server
 * An OAuth 2.1 resource server for both HTTP faces of a Tessera server. Every request is
 * authenticated on its own: the token is read from `Authorization` only, verified (signature,
 * issuer, audience = this resource, lifetime), bound to its DPoP key when it has one, and turned
 * into the principal that every binding uses (issuer, client, subject) and the scopes calls are
 * checked against. Refusals carry the challenges clients act on (RFC 6750, RFC 9449, RFC 9728).
 * No refusal, log line or error ever contains the token.
 */
import type { AuthInfo } from '@tessera/core'
import { HttpAuthError, type HttpAuthenticator, type HttpAuthRequest } from '@tessera/core/http'
import { assertKnownOptions, type OptionNames, type ReplayStore } from '@tessera/core/ports'
import { wireMappings } from '@tessera/core/protocol'
import type { DpopNonces } from '../dpop/dpop-nonce.ts'
import { DpopRejectedError, proofAcceptanceWindowMs, verifyDpopProof } from '../dpop/dpop-proof.ts'
import { type ProofLedger, proofKey, replayStoreLedger } from '../dpop/dpop-replay.ts'
import type { IssuerVerifiers } from '../verifiers/issuer-verifiers.ts'
import { TokenRejectedError, type TokenVerifier, type VerifiedToken } from '../verifiers/token-verifier.ts'
import { credentialsOf } from './authorization-header.ts'
import { type ChallengeParams, challenge } from './challenge.ts'
import { metadataPaths, metadataUrl, protectedResourceMetadata } from './metadata.ts'

/** How DPoP-bound tokens (RFC 9449) are accepted: the `dpop` option of `oauthResourceServer`. */
export interface DpopOptions {
  /**
   * Where each proof's `jti` is recorded, once, for as long as the proof is acceptable: the
   * server's single-use store (`stores.replay`), so a proof replayed on another worker or
   * instance is refused too.
   */
  replay: Pick<ReplayStore, 'claim'>
  /** Accepted proof algorithms (default ES256, ES384, EdDSA, RS256, PS256). */
  algorithms?: string[]
  /** How old a proof may be (default 60 s). */
  maxAgeSec?: number
  /** How far ahead a client's clock may run (default 5 s). */
  clockToleranceSec?: number
  /** Server-issued nonces (`dpopNonces()`): a proof must carry the current one. */
  nonces?: DpopNonces
}

/** What `oauthResourceServer` protects, who issues its tokens and how they are checked. */
export interface ResourceServerOptions {
  /** This server's canonical URI (RFC 8707), e.g. `https://mcp.example.com/mcp`; tokens must name it in `aud`. */
  resource: string
  /**
   * Where clients get tokens, listed in the metadata (at least one). Which issuer is accepted is
   * the verifier's `issuer`: keep the two in agreement (with `issuerVerifiers`, every issuer it
   * accepts must be listed, or the server is not created).
   */
  authorizationServers: string[]
  /**
   * Verifies access tokens: `jwtVerifier()`, `introspectionVerifier()`, `issuerVerifiers()` for
   * the tokens of several authorization servers, or your own.
   */
  verifier: TokenVerifier
  /** Scopes this server knows; listed in the metadata and named in the 401 challenge. */
  scopesSupported?: string[]
  /** Whether a request without a token is refused (default true). When false it is anonymous. */
  required?: boolean
  /**
   * Scopes that imply others: `{ 'ops:admin': ['ops:read', 'ops:rollback'] }` grants the listed
   * scopes to a token holding `ops:admin`.
   */
  scopeHierarchy?: Record<string, string[]>
  /** Accept DPoP-bound tokens (RFC 9449). Without it a DPoP-bound token is refused. */
  dpop?: DpopOptions
  /** A name for people, the `resource_name` of the metadata. */
  resourceName?: string
  /** A page about this server for developers, the `resource_documentation` of the metadata. */
  resourceDocumentation?: string
  /** The clock, in milliseconds since the epoch (tests fix it). */
  now?: () => number
}

const DPOP_OPTION_NAMES = {
  replay: true,
  algorithms: true,
  maxAgeSec: true,
  clockToleranceSec: true,
  nonces: true,
} as const satisfies OptionNames<DpopOptions>
const RESOURCE_SERVER_OPTION_NAMES = {
  resource: true,
  authorizationServers: true,
  verifier: true,
  scopesSupported: true,
  required: true,
  scopeHierarchy: true,
  dpop: true,
  resourceName: true,
  resourceDocumentation: true,
  now: true,
} as const satisfies OptionNames<ResourceServerOptions>

/**
 * The `auth` of an HTTP face: authenticates every request, serves the Protected Resource
 * Metadata, and writes the challenge of a missing scope.
 */
export interface ResourceServer extends HttpAuthenticator {
  /** The Protected Resource Metadata document. */
  readonly metadata: Readonly<Record<string, unknown>>
  /** Where the metadata is served (the URL challenges name). */
  readonly metadataUrl: string
}

/** Every issuer an `issuerVerifiers` accepts is one the metadata sends clients to. */
function assertListsIssuers(authorizationServers: readonly string[], verifier: TokenVerifier): void {
  const issuers = (verifier as Partial<IssuerVerifiers>).issuers
  if (!Array.isArray(issuers)) return
  const unlisted = issuers.filter((issuer) => !authorizationServers.includes(issuer))
  if (unlisted.length > 0)
    throw new TypeError(
      `authorizationServers must list every issuer the verifier accepts; missing: ${unlisted.join(', ')}.`,
    )
}

/** A refused or missing token, and a malformed `Authorization` header, as the error table answers them. */
const UNAUTHORIZED = wireMappings.TESSERA_UNAUTHORIZED.http
const BAD_REQUEST = wireMappings.TESSERA_INVALID_REQUEST.http

const DEFAULT_DPOP_ALGORITHMS = ['ES256', 'ES384', 'EdDSA', 'RS256', 'PS256']

const DESCRIPTIONS: Record<TokenRejectedError['reason'], string> = {
  malformed: 'The access token is malformed.',
  'bad-signature': 'The access token signature is invalid.',
  'unknown-key': 'The access token was signed with an unknown key.',
  'algorithm-not-allowed': 'The access token algorithm is not accepted.',
  'wrong-type': 'The access token has the wrong type.',
  expired: 'The access token expired.',
  'not-yet-valid': 'The access token is not valid yet.',
  'issued-in-future': 'The access token was issued in the future.',
  'wrong-issuer': 'The access token was issued by an issuer this server does not accept.',
  'wrong-audience': 'The access token is meant for another resource.',
  'missing-claim': 'The access token lacks a required claim.',
  inactive: 'The access token is not active.',
  'verifier-unavailable': 'The access token could not be verified now; retry later.',
}

/**
 * An OAuth 2.1 resource server for both HTTP faces: each request's token is read from
 * `Authorization`, verified, bound to its DPoP key when it has one, and turned into the principal
 * and scopes of the call. Bad options throw TypeError or RangeError here, at start.
 *
 * @example
 * ```ts
 * import { jwtVerifier, oauthResourceServer } from '@tessera/auth'
 * import { createServer } from '@tessera/core'
 * import { listen } from '@tessera/core/http'
 *
 * const resource = 'https://mcp.example.com/mcp'
 * const issuer = 'https://auth.example.com'
 * const app = createServer({ name: 'ops', version: '1.0.0' })
 *
 * await listen(app, {
 *   auth: oauthResourceServer({
 *     resource,
 *     authorizationServers: [issuer],
 *     scopesSupported: ['ops:read'],
 *     verifier: jwtVerifier({ issuer, audience: resource, jwks: new URL(`${issuer}/jwks`), type: 'at+jwt' }),
 *   }),
 * })
 * ```
 */
export function oauthResourceServer(options: ResourceServerOptions): ResourceServer {
  assertKnownOptions(options, RESOURCE_SERVER_OPTION_NAMES, 'oauthResourceServer', { required: true })
  assertKnownOptions(options.dpop, DPOP_OPTION_NAMES, 'oauthResourceServer', { path: 'dpop' })
  const resource = canonicalResource(options.resource)
  if (!Array.isArray(options.authorizationServers) || options.authorizationServers.length === 0)
    throw new TypeError('authorizationServers must list at least one authorization server.')
  if (typeof options.verifier?.verify !== 'function')
    throw new TypeError('verifier must be a TokenVerifier (jwtVerifier(), introspectionVerifier()).')
  assertListsIssuers(options.authorizationServers, options.verifier)
  const scopesSupported = options.scopesSupported ?? []
  const required = options.required ?? true
  const now = options.now ?? Date.now
  const dpop = options.dpop === undefined ? undefined : resolveDpop(options.dpop)
  const metadata = protectedResourceMetadata({
    resource,
    authorizationServers: options.authorizationServers,
    scopesSupported,
    dpopAlgorithms: dpop?.algorithms,
    resourceName: options.resourceName,
    resourceDocumentation: options.resourceDocumentation,
  })
  const url = metadataUrl(resource)
  const scopeList = scopesSupported.length > 0 ? scopesSupported.join(' ') : undefined

  /** The challenges of a refusal: Bearer always, DPoP too when proofs are accepted. */
  const challenges = (params: ChallengeParams, dpopParams: ChallengeParams = {}): string => {
    const bearer = challenge('Bearer', { resource_metadata: url, ...params })
    if (dpop === undefined) return bearer
    return `${bearer}, ${challenge('DPoP', { algs: dpop.algorithms.join(' '), resource_metadata: url, ...dpopParams })}`
  }
  const refuse = (description: string, error = 'invalid_token'): never => {
    throw new HttpAuthError(
      UNAUTHORIZED,
      description,
      challenges({ error, error_description: description, scope: scopeList }),
    )
  }

  const authenticate = async (request: HttpAuthRequest): Promise<AuthInfo | undefined> => {
    const credentials = credentialsOf(request)
    if (credentials.kind === 'malformed') {
      const description = `Bad request: ${credentials.problem}.`
      throw new HttpAuthError(
        BAD_REQUEST,
        description,
        challenges({ error: 'invalid_request', error_description: description }),
      )
    }
    if (credentials.kind !== 'token') {
      if (!required) return undefined
      throw new HttpAuthError(
        UNAUTHORIZED,
        'Unauthorized: an access token is required.',
        challenges({ scope: scopeList }),
      )
    }
    let token: VerifiedToken
    try {
      token = await options.verifier.verify(credentials.token)
    } catch (error) {
      if (error instanceof TokenRejectedError) return refuse(DESCRIPTIONS[error.reason])
      return refuse(DESCRIPTIONS['verifier-unavailable'])
    }
    if (credentials.scheme === 'DPoP' || token.jkt !== undefined) {
      if (dpop === undefined) return refuse('DPoP-bound access tokens are not accepted here.')
      if (credentials.scheme !== 'DPoP')
        return refuse('The access token is DPoP-bound: present it with a DPoP proof.')
      if (token.jkt === undefined) return refuse('The access token is not DPoP-bound.')
      await checkProof(dpop, request, resource, credentials.token, token.jkt, now(), challenges)
    }
    return principalOf(token, options.scopeHierarchy)
  }

  const documents: Record<string, unknown> = {}
  for (const path of metadataPaths(resource)) documents[path] = metadata
  return {
    authenticate,
    documents,
    metadata,
    metadataUrl: url,
    // A DPoP-bound token steps up with DPoP: the client is asked in the scheme it uses.
    insufficientScope: (scopes, auth) => {
      const algs = dpop !== undefined && isDpopBound(auth) ? dpop.algorithms.join(' ') : undefined
      return challenge(algs === undefined ? 'Bearer' : 'DPoP', {
        algs,
        error: 'insufficient_scope',
        scope: scopes.join(' '),
        resource_metadata: url,
        error_description: 'The access token lacks a scope this call needs.',
      })
    },
  }
}

interface ResolvedDpop {
  algorithms: string[]
  maxAgeSec: number
  clockToleranceSec: number
  ledger: ProofLedger
  nonces: DpopNonces | undefined
}

function resolveDpop(options: DpopOptions): ResolvedDpop {
  if (typeof options.replay?.claim !== 'function')
    throw new TypeError(
      'dpop.replay must be a ReplayStore (stores.replay of the server), so a proof is used once everywhere.',
    )
  return {
    algorithms: options.algorithms ?? DEFAULT_DPOP_ALGORITHMS,
    maxAgeSec: options.maxAgeSec ?? 60,
    clockToleranceSec: options.clockToleranceSec ?? 5,
    ledger: replayStoreLedger(options.replay),
    nonces: options.nonces,
  }
}

async function checkProof(
  dpop: ResolvedDpop,
  request: HttpAuthRequest,
  resource: URL,
  accessToken: string,
  jkt: string,
  now: number,
  challenges: (params: ChallengeParams, dpopParams?: ChallengeParams) => string,
): Promise<void> {
  const proofRefused = (
    description: string,
    error = 'invalid_dpop_proof',
    headers?: Record<string, string>,
  ): never => {
    throw new HttpAuthError(
      UNAUTHORIZED,
      description,
      challenges({}, { error, error_description: description }),
      headers,
    )
  }
  const proof = request.headers.get('dpop')
  if (proof === undefined || request.headers.isRepeated('dpop'))
    return proofRefused('A DPoP-bound token needs exactly one DPoP proof header.')
  const path = request.target.split('?')[0]!
  try {
    const verified = await verifyDpopProof({
      proof,
      method: request.method,
      url: new URL(path, resource.origin).href,
      accessToken,
      expectedJkt: jkt,
      algorithms: dpop.algorithms,
      maxAgeSec: dpop.maxAgeSec,
      clockToleranceSec: dpop.clockToleranceSec,
      now,
      nonce: dpop.nonces,
    })
    const ttlMs = proofAcceptanceWindowMs(dpop)
    let fresh: boolean
    try {
      fresh = await dpop.ledger.recordOnce(proofKey(verified.jkt, verified.jti), ttlMs)
    } catch {
      // Without a record, a replay cannot be told from a first use: refuse.
      return proofRefused('The DPoP proof could not be checked now; retry later.')
    }
    if (!fresh) return proofRefused('The DPoP proof was already used.')
  } catch (error) {
    if (!(error instanceof DpopRejectedError)) throw error
    if ((error.reason === 'missing-nonce' || error.reason === 'wrong-nonce') && dpop.nonces)
      return proofRefused('A fresh DPoP nonce is required.', 'use_dpop_nonce', {
        'dpop-nonce': dpop.nonces.current(),
      })
    return proofRefused(`The DPoP proof was refused (${error.reason}).`)
  }
}

function isDpopBound(auth: AuthInfo | undefined): boolean {
  const cnf = auth?.claims?.cnf
  return typeof cnf === 'object' && cnf !== null && typeof (cnf as { jkt?: unknown }).jkt === 'string'
}

/** The principal every binding uses, and the scopes calls are checked against; never the token. */
function principalOf(token: VerifiedToken, hierarchy: Record<string, string[]> | undefined): AuthInfo {
  const scopes = new Set(token.scopes)
  if (hierarchy !== undefined) {
    // A Set iterates over what is added while it iterates: implied scopes imply theirs in turn.
    for (const scope of scopes) for (const implied of hierarchy[scope] ?? []) scopes.add(implied)
  }
  const auth: AuthInfo = { issuer: token.issuer, scopes: [...scopes], claims: token.claims }
  if (token.subject !== undefined) auth.subject = token.subject
  if (token.clientId !== undefined) auth.clientId = token.clientId
  return auth
}

function canonicalResource(value: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new TypeError(`resource must be an absolute URL, got '${value}'.`)
  }
  if (url.hash !== '' || value.includes('#')) throw new TypeError('resource must not have a fragment.')
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new TypeError('resource must be an http(s) URL.')
  return url
}
