/**
 * @module oauth
 * A local authorization server for the auth tests: its own key pair (rotatable), a JWKS endpoint
 * over real HTTP that counts its fetches, an introspection endpoint, and token and DPoP proof
 * minting the way a real authorization server and client would.
 */
import { createHash, randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  base64url,
  type CryptoKey,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
} from 'jose'

interface SigningKey {
  kid: string
  privateKey: CryptoKey
  publicJwk: JWK
}

async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } }
}

export interface TokenClaims extends JWTPayload {
  scope?: string
  client_id?: string
  cnf?: { jkt: string }
}

export interface TestAuthority {
  readonly issuer: string
  readonly jwksUrl: URL
  readonly introspectionUrl: URL
  /** How many times the JWKS was fetched. */
  readonly jwksFetches: number
  /** The current key's public JWK (for a local JWKS). */
  publicJwks(): { keys: JWK[] }
  /** Signs a token with the current key; `claims` override the defaults. */
  mint(claims: TokenClaims, header?: { kid?: string; typ?: string }): Promise<string>
  /** A new current key, published in the JWKS from now on (the old one is dropped). */
  rotate(): Promise<void>
  /** Makes the introspection endpoint answer `active: false` for this token. */
  revoke(token: string): void
  close(): Promise<void>
}

export async function startAuthority(audience: string): Promise<TestAuthority> {
  let current = await signingKey('k1')
  let fetches = 0
  const revoked = new Set<string>()
  const minted = new Map<string, TokenClaims>()
  const server: Server = createServer((req, res): void => {
    if (req.url === '/jwks') {
      fetches++
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ keys: [current.publicJwk] }))
      return
    }
    if (req.url === '/introspect' && req.method === 'POST') {
      let body = ''
      req.on('data', (chunk) => {
        body += chunk
      })
      req.on('end', () => {
        const token = new URLSearchParams(body).get('token') ?? ''
        const claims = minted.get(token)
        const active = claims !== undefined && !revoked.has(token)
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify(active ? { active: true, ...claims } : { active: false }))
      })
      return
    }
    res.writeHead(404)
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const issuer = origin
  return {
    issuer,
    jwksUrl: new URL('/jwks', origin),
    introspectionUrl: new URL('/introspect', origin),
    get jwksFetches() {
      return fetches
    },
    publicJwks: () => ({ keys: [current.publicJwk] }),
    async mint(claims, header = {}) {
      const now = Math.floor(Date.now() / 1000)
      const payload: TokenClaims = {
        iss: issuer,
        aud: audience,
        sub: 'alice',
        client_id: 'cli',
        scope: 'ops:read',
        iat: now,
        exp: now + 300,
        jti: randomUUID(),
        ...claims,
      }
      const token = await new SignJWT(payload)
        .setProtectedHeader({ alg: 'RS256', kid: header.kid ?? current.kid, typ: header.typ ?? 'at+jwt' })
        .sign(current.privateKey)
      minted.set(token, payload)
      return token
    },
    async rotate() {
      current = await signingKey(`k${Number(current.kid.slice(1)) + 1}`)
    },
    revoke: (token) => void revoked.add(token),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export interface DpopClient {
  readonly jkt: string
  /** A proof for one request; `claims` override what an honest client would put in it. */
  proof(method: string, url: string, accessToken: string, claims?: JWTPayload): Promise<string>
}

export async function dpopClient(): Promise<DpopClient> {
  const { privateKey, publicKey } = await generateKeyPair('ES256')
  const jwk = await exportJWK(publicKey)
  return {
    jkt: await calculateJwkThumbprint(jwk, 'sha256'),
    proof: (method, url, accessToken, claims = {}) =>
      new SignJWT({
        htm: method,
        htu: url,
        iat: Math.floor(Date.now() / 1000),
        jti: randomUUID(),
        ath: base64url.encode(createHash('sha256').update(accessToken).digest()),
        ...claims,
      })
        .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk })
        .sign(privateKey),
  }
}

/** A token signed with no algorithm at all, as an attacker would send it. */
export function unsignedToken(claims: JWTPayload): string {
  const part = (value: unknown) => base64url.encode(JSON.stringify(value))
  return `${part({ alg: 'none', typ: 'at+jwt' })}.${part(claims)}.`
}
