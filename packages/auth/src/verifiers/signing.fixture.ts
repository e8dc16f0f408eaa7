/**
 * @module signing.fixture
 * Keys and tokens for the verifier tests: real key pairs from jose, tokens signed with SignJWT,
 * all at one fixed instant so no test depends on the machine's clock.
 */
import { inspect } from 'node:util'
import { base64url, exportJWK, generateKeyPair, type JWK, type JWTHeaderParameters, SignJWT } from 'jose'
import { expect } from 'vitest'
import { TokenRejectedError } from './token-verifier.ts'

export const NOW_MS = 1_800_000_000_000
export const NOW = NOW_MS / 1000
export const ISSUER = 'https://issuer.example'
export const AUDIENCE = 'https://mcp.example/mcp'

export interface TestKey {
  kid: string
  alg: string
  privateKey: CryptoKey
  publicKey: CryptoKey
  /** The public JWK, with `kid`, `alg` and `use`. */
  jwk: JWK
}

export async function testKey(kid: string, alg = 'RS256'): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' }
  return { kid, alg, privateKey, publicKey, jwk }
}

export function jwksOf(...keys: TestKey[]): { keys: JWK[] } {
  return { keys: keys.map((key) => key.jwk) }
}

/**
 * A token from ISSUER for AUDIENCE, issued at NOW and valid five minutes, unless `claims` says
 * otherwise; a claim set to undefined is left out.
 */
export async function signToken(
  key: TestKey,
  claims: Record<string, unknown> = {},
  header: Partial<JWTHeaderParameters> = {},
): Promise<string> {
  const payload = withoutUndefined({
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'user-1',
    iat: NOW,
    exp: NOW + 300,
    ...claims,
  })
  return new SignJWT(payload)
    .setProtectedHeader(withoutUndefined({ alg: key.alg, kid: key.kid, ...header }) as JWTHeaderParameters)
    .sign(key.privateKey)
}

/** An unsigned token, crafted by hand: jose refuses to make one. */
export function unsignedToken(claims: Record<string, unknown> = {}): string {
  const encode = (value: unknown) => base64url.encode(JSON.stringify(value))
  const payload = { iss: ISSUER, aud: AUDIENCE, sub: 'user-1', iat: NOW, exp: NOW + 300, ...claims }
  return `${encode({ alg: 'none' })}.${encode(payload)}.`
}

/** The TokenRejectedError `promise` rejects with; fails the test if it resolves or throws something else. */
export async function rejection(promise: Promise<unknown>): Promise<TokenRejectedError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(outcome).toBeInstanceOf(TokenRejectedError)
  return outcome as TokenRejectedError
}

/** Asserts that no trace of `token` (whole, or any dot-separated part) nor `secrets` is in `error`, cause chain included. */
export function expectNoTraceOf(error: unknown, token: string, secrets: string[] = []): void {
  const rendered = `${inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true })}\n${JSON.stringify(error)}`
  for (const part of [token, ...token.split('.'), ...secrets].filter((item) => item.length > 0)) {
    expect(rendered).not.toContain(part)
  }
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined))
}
