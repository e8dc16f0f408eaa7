/**
 * @module oauth-dpop.test
 * DPoP over real HTTP: a bound token works only with a fresh proof of its key for this request;
 * a proof is good once across every instance sharing the single-use store (here two servers on
 * one SQLite file, as two workers would be); and tokens checked by introspection.
 */
import { mkdtempSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { introspectionVerifier, jwtVerifier, oauthResourceServer } from '@tessera/auth'
import { createServer } from '@tessera/core'
import { createNodeListener } from '@tessera/core/http'
import { sqliteReplayStore } from '@tessera/store-sqlite'
import { describe, expect, it } from 'vitest'
import { McpHttpClient } from '../../helpers/mcp-http.ts'
import { dpopClient, startAuthority } from '../../helpers/oauth.ts'
import { silentLogger } from '../../helpers/silent-logger.ts'
import { useOAuthServers, withToken } from '../fixtures/oauth-server.ts'

const start = useOAuthServers()

const dpopHeaders = (token: string, proof?: string): { headers: Record<string, string> } => ({
  headers:
    proof === undefined
      ? { authorization: `DPoP ${token}` }
      : { authorization: `DPoP ${token}`, dpop: proof },
})

describe('DPoP-bound tokens', () => {
  it('workWithAFreshProofOfTheBoundKey', async () => {
    const f = await start({ dpop: true })
    const client = await dpopClient()
    const token = await f.authority.mint({ cnf: { jkt: client.jkt } })
    const reply = await f.client.request(
      'tools/list',
      {},
      dpopHeaders(token, await client.proof('POST', f.url, token)),
    )
    expect(reply.status).toBe(200)
  })

  it('stepUpWithADpopChallengeWhenAScopeIsMissing', async () => {
    const f = await start({ dpop: true })
    const client = await dpopClient()
    const token = await f.authority.mint({ scope: 'ops:read', cnf: { jkt: client.jkt } })
    const proof = await client.proof('POST', f.url, token)
    const reply = await f.client.callTool('rollback', { service: 'api' }, dpopHeaders(token, proof))
    expect(reply.status).toBe(403)
    expect(reply.headers.get('www-authenticate')).toMatch(
      /^DPoP algs="[^"]+", error="insufficient_scope", scope="ops:rollback", resource_metadata=/,
    )
  })

  it('areRefusedWithoutAProofOrAsPlainBearerTokens', async () => {
    const f = await start({ dpop: true })
    const client = await dpopClient()
    const token = await f.authority.mint({ cnf: { jkt: client.jkt } })
    const withoutProof = await f.client.request('tools/list', {}, dpopHeaders(token))
    expect(withoutProof.status).toBe(401)
    expect(withoutProof.headers.get('www-authenticate')).toContain('DPoP algs=')
    const asBearer = await f.client.request(
      'tools/list',
      {},
      { headers: { authorization: `Bearer ${token}` } },
    )
    expect(asBearer.status).toBe(401)
    const proof = await client.proof('POST', f.url, token)
    const asBearerWithProof = await f.client.request(
      'tools/list',
      {},
      {
        headers: { authorization: `Bearer ${token}`, dpop: proof },
      },
    )
    expect(asBearerWithProof.status).toBe(401)
  })

  it('refuseAProofForAnotherMethodUrlTokenOrKey', async () => {
    const f = await start({ dpop: true })
    const client = await dpopClient()
    const other = await dpopClient()
    const token = await f.authority.mint({ cnf: { jkt: client.jkt } })
    const proofs = {
      htm: await client.proof('GET', f.url, token),
      htu: await client.proof('POST', f.url.replace('/mcp', '/other'), token),
      ath: await client.proof('POST', f.url, 'another-token'),
      key: await other.proof('POST', f.url, token),
    }
    for (const [name, proof] of Object.entries(proofs)) {
      const reply = await f.client.request('tools/list', {}, dpopHeaders(token, proof))
      expect({ name, status: reply.status }).toEqual({ name, status: 401 })
      expect(reply.headers.get('www-authenticate')).toContain('error="invalid_dpop_proof"')
    }
  })

  it('refuseAProofReplayedOnAnotherWorkerSharingTheStore', async () => {
    // Two workers behind one port, as node:cluster runs them: each its own server, resource
    // server and connection to one SQLite file; requests alternate between them.
    const file = join(mkdtempSync(join(tmpdir(), 'tessera-dpop-')), 'replay.db')
    const http = createHttpServer()
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`
    const authority = await startAuthority(url)
    const workers = [0, 1].map(() => {
      const replay = sqliteReplayStore({ path: file })
      const app = createServer({ name: 'w', version: '1', logger: silentLogger, stores: { replay } })
      app.tool('status', { description: 'Status', scopes: ['ops:read'] }, () => 'green')
      const auth = oauthResourceServer({
        resource: url,
        authorizationServers: [authority.issuer],
        verifier: jwtVerifier({ issuer: authority.issuer, audience: url, jwks: authority.jwksUrl }),
        dpop: { replay },
      })
      return { app, listener: createNodeListener(app, { auth }) }
    })
    let turn = 0
    http.on('request', (req, res) => workers[turn++ % 2]!.listener(req, res))
    try {
      const client = await dpopClient()
      const token = await authority.mint({ cnf: { jkt: client.jkt } })
      const proof = await client.proof('POST', url, token)
      const mcp = new McpHttpClient(url)
      expect((await mcp.request('tools/list', {}, dpopHeaders(token, proof))).status).toBe(200)
      const replayed = await mcp.request('tools/list', {}, dpopHeaders(token, proof))
      expect(replayed.status).toBe(401)
      expect(replayed.headers.get('www-authenticate')).toContain('error="invalid_dpop_proof"')
      const fresh = await client.proof('POST', url, token)
      expect((await mcp.request('tools/list', {}, dpopHeaders(token, fresh))).status).toBe(200)
    } finally {
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
      await Promise.all(workers.map((w) => w.app.close()))
      await authority.close()
    }
  })
})

describe('introspection', () => {
  it('acceptsAnActiveTokenAndRefusesARevokedOneAtALocalAuthorizationServer', async () => {
    const f = await start({
      verifier: (authority, audience) =>
        introspectionVerifier({
          endpoint: authority.introspectionUrl,
          clientId: 'mcp-server',
          clientSecret: 'secret',
          audience,
          issuer: authority.issuer,
          cacheTtlMs: 0,
        }),
    })
    const token = await f.authority.mint({ scope: 'ops:read' })
    expect(
      (await f.client.request('tools/call', { name: 'status', arguments: {} }, withToken(token))).status,
    ).toBe(200)
    f.authority.revoke(token)
    const revoked = await f.client.request('tools/list', {}, withToken(token))
    expect(revoked.status).toBe(401)
    expect(revoked.headers.get('www-authenticate')).toContain('error="invalid_token"')
    const foreign = await f.authority.mint({ aud: 'https://other.example/mcp' })
    expect((await f.client.request('tools/list', {}, withToken(foreign))).status).toBe(401)
  })
})
