/**
 * @module dpop-proof.fixture
 * Keys, proofs and checks for the DPoP tests: a proof is signed the way a client signs one, and
 * each test changes only what it is about.
 */
import { createHash } from 'node:crypto'
import type { CryptoKey, JWK, JWTPayload } from 'jose'
import { base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from 'jose'
import { expect } from 'vitest'
import { type DpopProofCheck, DpopRejectedError, type DpopRejection, verifyDpopProof } from './dpop-proof.ts'

export const NOW = 1_800_000_000_000
export const NOW_SEC = NOW / 1000
export const URL_ = 'https://mcp.example.com/mcp'
export const TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl-token_value'

export interface ClientKey {
  alg: string
  privateKey: CryptoKey
  publicJwk: JWK
  privateJwk: JWK
  jkt: string
}

export async function clientKey(alg: 'ES256' | 'RS256' = 'ES256'): Promise<ClientKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  const publicJwk = await exportJWK(publicKey)
  return {
    alg,
    privateKey,
    publicJwk,
    privateJwk: await exportJWK(privateKey),
    jkt: await calculateJwkThumbprint(publicJwk, 'sha256'),
  }
}

export function tokenHash(token: string): string {
  return base64url.encode(createHash('sha256').update(token, 'ascii').digest())
}

export interface ProofOptions {
  /** Claims to merge over the defaults; an undefined value removes the claim. */
  claims?: Record<string, unknown>
  /** Header members to merge over `{ typ, alg, jwk }`. */
  header?: Record<string, unknown>
}

let serial = 0

/** A proof as an honest client makes it for GET URL_ with TOKEN at NOW. */
export async function signProof(key: ClientKey, options: ProofOptions = {}): Promise<string> {
  const claims: Record<string, unknown> = {
    jti: `jti-${++serial}`,
    htm: 'GET',
    htu: URL_,
    iat: NOW_SEC,
    ath: tokenHash(TOKEN),
    ...options.claims,
  }
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name]
  const header = { typ: 'dpop+jwt', alg: key.alg, jwk: key.publicJwk, ...options.header }
  return new SignJWT(claims as JWTPayload).setProtectedHeader(header as { alg: string }).sign(key.privateKey)
}

/** A check that accepts `signProof(key)` as it is. */
export function checkFor(
  key: ClientKey,
  proof: string,
  overrides: Partial<DpopProofCheck> = {},
): DpopProofCheck {
  return {
    proof,
    method: 'GET',
    url: URL_,
    accessToken: TOKEN,
    expectedJkt: key.jkt,
    algorithms: ['ES256', 'RS256'],
    maxAgeSec: 60,
    clockToleranceSec: 5,
    now: NOW,
    ...overrides,
  }
}

/** A compact JWS from raw parts, for proofs no honest library would produce. */
export function compact(header: object, payload: object, signature = ''): string {
  const part = (value: object): string => base64url.encode(JSON.stringify(value))
  return `${part(header)}.${part(payload)}.${signature}`
}

/**
 * Expects a refusal for `reason` whose message names the reason and nothing of the proof or the
 * token: neither whole nor any of their dot-separated parts (those long enough not to occur in a
 * sentence by chance).
 */
export async function expectRejection(check: DpopProofCheck, reason: DpopRejection): Promise<void> {
  const error = await verifyDpopProof(check).then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(DpopRejectedError)
  const rejection = error as DpopRejectedError
  expect(rejection.reason).toBe(reason)
  expect(rejection.message).toBe(`DPoP proof rejected: ${reason}`)
  expect(rejection.cause).toBeUndefined()
  const secrets = [check.proof, check.accessToken, ...check.proof.split('.'), ...check.accessToken.split('.')]
  for (const secret of secrets.filter((part) => part.length >= 8)) {
    expect(rejection.message).not.toContain(secret)
    expect(rejection.stack ?? '').not.toContain(secret)
  }
}

/** Claim padding that pushes a signed proof past the length limit. */
export const MAX_PROOF_PADDING = 9 * 1024
