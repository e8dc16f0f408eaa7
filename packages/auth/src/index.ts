/**
 * @module @tessera/auth
 * An OAuth 2.1 resource server for Tessera: `oauthResourceServer()` authenticates every HTTP
 * request (bearer and DPoP tokens), serves the Protected Resource Metadata, and gives the
 * principal and scopes that bindings and scope checks use. Pass it as the `auth` option of
 * `listen`, `createNodeListener` or `createFetchHandler`.
 */
export { type DpopNonceOptions, type DpopNonces, dpopNonces } from './dpop/dpop-nonce.ts'
export { DpopRejectedError, type DpopRejection } from './dpop/dpop-proof.ts'
export {
  type DpopOptions,
  oauthResourceServer,
  type ResourceServer,
  type ResourceServerOptions,
} from './resource-server/resource-server.ts'
export {
  type IntrospectionVerifierOptions,
  introspectionVerifier,
} from './verifiers/introspection-verifier.ts'
export {
  type IssuerVerifiers,
  type IssuerVerifiersOptions,
  issuerVerifiers,
} from './verifiers/issuer-verifiers.ts'
export { type JwtVerifierOptions, jwtVerifier } from './verifiers/jwt-verifier.ts'
export {
  TokenRejectedError,
  type TokenRejection,
  type TokenVerifier,
  type VerifiedToken,
} from './verifiers/token-verifier.ts'
