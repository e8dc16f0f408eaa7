import { createServer } from '@tessera/core'
import { createFetchHandler } from '@tessera/core/http'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { jwtVerifier } from '../verifiers/jwt-verifier.ts'
import { oauthResourceServer } from './resource-server.ts'

const RESOURCE = 'http://127.0.0.1/mcp'
const ISSUER = 'https://idp.example'

/** The fetch face (Hono, Workers) behind the resource server, with a local JWKS. */
async function fetchFace() {
  const { privateKey, publicKey } = await generateKeyPair('ES256')
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k', alg: 'ES256' }
  const app = createServer({
    name: 'f',
    version: '1',
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  })
  app.tool('ping', { description: 'Pings', scopes: ['ops:read'] }, () => 'pong')
  const auth = oauthResourceServer({
    resource: RESOURCE,
    authorizationServers: [ISSUER],
    scopesSupported: ['ops:read'],
    verifier: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwks: { keys: [jwk] } }),
  })
  const handler = createFetchHandler(app, { auth })
  const token = (scope: string) =>
    new SignJWT({ scope })
      .setProtectedHeader({ alg: 'ES256', kid: 'k' })
      .setIssuer(ISSUER)
      .setAudience(RESOURCE)
      .setSubject('ann')
      .setExpirationTime('5m')
      .sign(privateKey)
  return { handler, token }
}

const post = (authorization?: string) =>
  new Request(RESOURCE, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'ping',
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'ping',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  })

describe('the resource server on the fetch face', () => {
  it('answersLikeTheNodeFaceMetadata401AndAValidToken', async () => {
    const { handler, token } = await fetchFace()
    const metadata = await handler(new Request('http://127.0.0.1/.well-known/oauth-protected-resource/mcp'))
    expect(await metadata.json()).toMatchObject({ resource: RESOURCE, authorization_servers: [ISSUER] })
    const anonymous = await handler(post())
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp", scope="ops:read"',
    )
    const served = await handler(post(`Bearer ${await token('ops:read')}`))
    expect(served.status).toBe(200)
    const forbidden = await handler(post(`Bearer ${await token('other')}`))
    expect(forbidden.status).toBe(403)
    expect(forbidden.headers.get('www-authenticate')).toContain(
      'error="insufficient_scope", scope="ops:read"',
    )
  })
})
