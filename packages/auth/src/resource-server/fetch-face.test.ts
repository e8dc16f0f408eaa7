import { createServer } from '@tessera/core'
import { createFetchHandler } from '@tessera/core/http'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { FETCH_URL } from '../../../../test/helpers/fetch-client.ts'
import { McpHttpClient } from '../../../../test/helpers/mcp-http.ts'
import { silentLogger } from '../../../../test/helpers/silent-logger.ts'
import { jwtVerifier } from '../verifiers/jwt-verifier.ts'
import { oauthResourceServer } from './resource-server.ts'

const ISSUER = 'https://idp.example'

/** The fetch face (Hono, Workers) behind the resource server, with a local JWKS. */
async function fetchFace() {
  const { privateKey, publicKey } = await generateKeyPair('ES256')
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k', alg: 'ES256' }
  const app = createServer({ name: 'f', version: '1', logger: silentLogger })
  app.tool('ping', { description: 'Pings', scopes: ['ops:read'] }, () => 'pong')
  const auth = oauthResourceServer({
    resource: FETCH_URL,
    authorizationServers: [ISSUER],
    scopesSupported: ['ops:read'],
    verifier: jwtVerifier({ issuer: ISSUER, audience: FETCH_URL, jwks: { keys: [jwk] } }),
  })
  const bearer = async (scope: string) => ({
    headers: {
      authorization: `Bearer ${await new SignJWT({ scope })
        .setProtectedHeader({ alg: 'ES256', kid: 'k' })
        .setIssuer(ISSUER)
        .setAudience(FETCH_URL)
        .setSubject('ann')
        .setExpirationTime('5m')
        .sign(privateKey)}`,
    },
  })
  const handler = createFetchHandler(app, { auth })
  return {
    handler,
    client: new McpHttpClient(FETCH_URL, (url, init) => handler(new Request(url, init))),
    bearer,
  }
}

describe('the resource server on the fetch face', () => {
  it('answersLikeTheNodeFaceMetadata401AndAValidToken', async () => {
    const { handler, client, bearer } = await fetchFace()
    const metadata = await handler(
      new Request(new URL('/.well-known/oauth-protected-resource/mcp', FETCH_URL)),
    )
    expect(await metadata.json()).toMatchObject({ resource: FETCH_URL, authorization_servers: [ISSUER] })
    const call = { name: 'ping', arguments: {} }
    const anonymous = await client.request('tools/call', call)
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp", scope="ops:read"',
    )
    expect((await client.request('tools/call', call, await bearer('ops:read'))).status).toBe(200)
    const forbidden = await client.request('tools/call', call, await bearer('other'))
    expect(forbidden.status).toBe(403)
    expect(forbidden.headers.get('www-authenticate')).toContain(
      'error="insufficient_scope", scope="ops:read"',
    )
  })
})
