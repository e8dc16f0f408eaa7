/**
 * @module auth-mode.test
 * The demo's authenticated mode, end to end over real HTTP, as a user tries it: find the
 * metadata, get 401 without a token, mint development tokens, list with a read-only token, get
 * 403 on `rollback`, and roll back once with the `ops:rollback` scope.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dpopClient } from '../../../test/helpers/oauth.ts'
import { DEV_ISSUER, devIssuerFiles, initDevIssuer, mintDevToken } from '../src/dev-token.ts'
import { McpClient, type ToolResult } from './mcp-client.ts'
import { freePort, OpsProcess } from './spawn-ops.ts'

/** The demo with a development issuer and `extra` flags, for the tests of one describe block. */
function useAuthenticatedDemo(extra: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'ops-catalogue-auth-'))
  const demo = { dir, url: '' }
  let ops: OpsProcess | undefined
  beforeAll(async () => {
    const port = await freePort()
    demo.url = `http://127.0.0.1:${port}/mcp`
    await initDevIssuer(dir)
    const jwks = devIssuerFiles(dir).jwks
    const flags = ['--auth-issuer', DEV_ISSUER, '--auth-audience', demo.url, '--auth-jwks', jwks, ...extra]
    ops = new OpsProcess(['--data', dir, '--rollback-seconds', '0', ...flags], { PORT: String(port) })
    await ops.waitForEvent('listening')
  }, 30_000)
  afterAll(async () => {
    await ops?.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  return demo
}

describe('the authenticated mode', () => {
  const demo = useAuthenticatedDemo()

  const token = (scope: string) => mintDevToken(demo.dir, { scope, audience: demo.url, subject: 'ann' })
  const as = async (scope: string) =>
    new McpClient(demo.url, { headers: { authorization: `Bearer ${await token(scope)}` } })

  it('publishesItsMetadataAndAnswers401WithoutAToken', async () => {
    const metadata = await (
      await fetch(new URL('/.well-known/oauth-protected-resource/mcp', demo.url))
    ).json()
    expect(metadata).toMatchObject({
      resource: demo.url,
      authorization_servers: [DEV_ISSUER],
      scopes_supported: ['ops:read', 'ops:rollback'],
    })
    const anonymous = await new McpClient(demo.url).request('tools/list')
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toContain('resource_metadata=')
  })

  it('listsWithAReadTokenAndRefusesItTheRollbackWithTheStepUpChallenge', async () => {
    const reader = await as('ops:read')
    const list = await reader.request<{ tools: { name: string }[] }>('tools/list')
    expect(list.result?.tools.map((t) => t.name)).toContain('rollback')
    const refused = await reader.callTool('rollback', { service: 'checkout' })
    expect(refused.status).toBe(403)
    expect(refused.headers.get('www-authenticate')).toContain(
      'error="insufficient_scope", scope="ops:rollback"',
    )
  })

  it('rollsBackOnceWithTheRollbackScope', async () => {
    const operator = await as('ops:read ops:rollback')
    const history = async () =>
      (
        (await operator.callTool('deployment_history', { service: 'checkout', limit: 50 }))
          .result as ToolResult
      ).structuredContent?.deployments as Array<{ kind: string; by: string }>
    const before = (await history()).filter((d) => d.kind === 'rollback').length
    const asked = (await operator.callTool('rollback', { service: 'checkout' })).result as ToolResult
    expect(asked.resultType).toBe('input_required')
    const choices = asked.inputRequests?.version?.params.requestedSchema as {
      properties: { version: { enum: string[] } }
    }
    const answer = { version: { action: 'accept', content: { version: choices.properties.version.enum[0] } } }
    const again = { requestState: asked.requestState, inputResponses: answer }
    const done = await operator.callTool('rollback', { service: 'checkout' }, again)
    expect((done.result as ToolResult).structuredContent).toMatchObject({ outcome: 'rolled_back' })
    // The same answer again is told the recorded outcome; it does not roll back a second time.
    await operator.callTool('rollback', { service: 'checkout' }, again)
    const rollbacks = (await history()).filter((d) => d.kind === 'rollback')
    expect(rollbacks.length).toBe(before + 1)
    // The log names the token's subject as who rolled back.
    expect(rollbacks[0]?.by).toBe('ann')
  })
})

describe('the authenticated mode with DPoP', () => {
  const demo = useAuthenticatedDemo(['--auth-dpop'])

  it('acceptsABoundTokenWithAFreshProofOnceAndRefusesItAsABearerToken', async () => {
    const client = await dpopClient()
    const token = await mintDevToken(demo.dir, { scope: 'ops:read', audience: demo.url, dpopJkt: client.jkt })
    const proof = await client.proof('POST', demo.url, token)
    const withProof = new McpClient(demo.url, { headers: { authorization: `DPoP ${token}`, dpop: proof } })
    expect((await withProof.request('tools/list')).status).toBe(200)
    const replayed = await withProof.request('tools/list')
    expect(replayed.status).toBe(401)
    expect(replayed.headers.get('www-authenticate')).toContain('error="invalid_dpop_proof"')
    const asBearer = await new McpClient(demo.url, { headers: { authorization: `Bearer ${token}` } }).request(
      'tools/list',
    )
    expect(asBearer.status).toBe(401)
  })
})
