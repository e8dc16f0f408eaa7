/**
 * @module dev-token
 * `npm run token`: a development issuer for trying the authenticated mode without an
 * authorization server. `init` writes a key pair (the private key at mode 0600, the public JWKS
 * beside it); `mint` signs an access token with it. Never use these tokens outside development:
 * whoever can read the private key file can mint any token.
 */
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose'
import { DEFAULT_DATA_DIR } from './cli.ts'

export const DEV_ISSUER = 'https://dev-issuer.invalid'
export const DEV_AUDIENCE = 'http://127.0.0.1:3000/mcp'

export interface DevIssuerFiles {
  privateKey: string
  jwks: string
}

export function devIssuerFiles(dataDir: string): DevIssuerFiles {
  const dir = resolve(dataDir, 'auth')
  return { privateKey: resolve(dir, 'issuer-private.jwk.json'), jwks: resolve(dir, 'jwks.json') }
}

/** Writes a new key pair unless one exists; returns where. */
export async function initDevIssuer(dataDir: string): Promise<DevIssuerFiles & { created: boolean }> {
  const files = devIssuerFiles(dataDir)
  if (existsSync(files.privateKey)) return { ...files, created: false }
  mkdirSync(resolve(files.privateKey, '..'), { recursive: true, mode: 0o700 })
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
  const kid = randomUUID()
  writeFileSync(files.privateKey, JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: 'ES256' }), {
    mode: 0o600,
  })
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }
  writeFileSync(files.jwks, `${JSON.stringify({ keys: [publicJwk] }, null, 2)}\n`)
  return { ...files, created: true }
}

export interface DevTokenClaims {
  scope: string
  subject?: string
  audience?: string
  issuer?: string
  ttlSeconds?: number
  /** Binds the token to a DPoP key (its SHA-256 JWK thumbprint). */
  dpopJkt?: string
}

export async function mintDevToken(dataDir: string, claims: DevTokenClaims): Promise<string> {
  const jwk = JSON.parse(readFileSync(devIssuerFiles(dataDir).privateKey, 'utf8')) as JWK
  const key = await importJWK(jwk, 'ES256')
  const now = Math.floor(Date.now() / 1000)
  const payload: Record<string, unknown> = { scope: claims.scope, client_id: 'dev-token' }
  if (claims.dpopJkt !== undefined) payload.cnf = { jkt: claims.dpopJkt }
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'ES256', kid: jwk.kid!, typ: 'at+jwt' })
    .setIssuer(claims.issuer ?? DEV_ISSUER)
    .setAudience(claims.audience ?? DEV_AUDIENCE)
    .setSubject(claims.subject ?? 'dev-user')
    .setIssuedAt(now)
    .setExpirationTime(now + (claims.ttlSeconds ?? 3600))
    .setJti(randomUUID())
    .sign(key)
}

const USAGE = `Usage:
  npm run token -- init [--data DIR]
      writes a development issuer's key pair to DIR/auth (default: examples/ops-catalogue/.data)
  npm run token -- mint --scope "ops:read ops:rollback" [--sub NAME] [--aud URL] [--iss URL]
                        [--ttl SECONDS] [--dpop-jkt THUMBPRINT] [--data DIR]
      prints an access token signed by that issuer (default aud ${DEV_AUDIENCE}, iss ${DEV_ISSUER})`

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      data: { type: 'string' },
      scope: { type: 'string' },
      sub: { type: 'string' },
      aud: { type: 'string' },
      iss: { type: 'string' },
      ttl: { type: 'string' },
      'dpop-jkt': { type: 'string' },
    },
  })
  const dataDir = resolve(values.data ?? DEFAULT_DATA_DIR)
  if (positionals[0] === 'init') {
    const files = await initDevIssuer(dataDir)
    process.stdout.write(
      `${files.created ? 'created' : 'kept'} ${files.privateKey}\n` +
        `start the demo with:\n  npm start -- --auth-issuer ${DEV_ISSUER} --auth-audience ${DEV_AUDIENCE} --auth-jwks ${files.jwks}\n`,
    )
    return 0
  }
  if (positionals[0] === 'mint' && values.scope !== undefined) {
    const ttl = values.ttl === undefined ? undefined : Number(values.ttl)
    if (ttl !== undefined && !(Number.isInteger(ttl) && ttl > 0))
      throw new Error('--ttl must be a positive integer')
    const token = await mintDevToken(dataDir, {
      scope: values.scope,
      subject: values.sub,
      audience: values.aud,
      issuer: values.iss,
      ttlSeconds: ttl,
      dpopJkt: values['dpop-jkt'],
    })
    process.stdout.write(`${token}\n`)
    return 0
  }
  process.stderr.write(`${USAGE}\n`)
  return 2
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`dev-token: ${(error as Error).message}\n`)
      process.exit(1)
    },
  )
}
