/**
 * @module cluster-race.test
 * The check-then-act race, probed where it lives: `npm start -- --workers 4`
 * as a real process tree, one answer re-sent four times at once, eight rounds. Sequential retries
 * cannot show this race; only parallel ones that land on different workers can. The deployment
 * log, not the single-use record, is what gets counted.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HandshakeClient, textOf as handshakeText, resultOf } from '../../../test/helpers/handshake-client.ts'
import { loadCatalogue } from '../src/catalogue/load-catalogue.ts'
import { SHIPPED_CATALOGUE } from '../src/cli.ts'
import { answer, McpClient, type ToolResult, textOf } from './mcp-client.ts'
import { freePort, OpsProcess } from './spawn-ops.ts'

const WORKERS = 4
const ROUNDS = 8
const PARALLEL = 4
const dir = mkdtempSync(join(tmpdir(), 'ops-catalogue-cluster-'))
let ops: OpsProcess
let client: McpClient

beforeAll(async () => {
  const port = await freePort()
  ops = new OpsProcess(['--workers', String(WORKERS), '--data', dir, '--rollback-seconds', '0'], {
    PORT: String(port),
  })
  const ready = await ops.waitForEvent('cluster_listening')
  expect(ready.workers).toBe(WORKERS)
  client = new McpClient(`http://127.0.0.1:${port}/mcp`)
}, 30_000)

afterAll(async () => {
  const code = await ops?.stop()
  rmSync(dir, { recursive: true, force: true })
  expect(code).toBe(0)
})

describe(`--workers ${WORKERS}`, () => {
  it(`${ROUNDS}RoundsOf${PARALLEL}ParallelRetriesOfOneAnswerRollBackExactly${ROUNDS}Times`, async () => {
    // One service per round, so every round has an earlier version to go back to.
    const services = loadCatalogue(SHIPPED_CATALOGUE).ids().slice(0, ROUNDS)
    const duplicates: string[] = []
    for (const service of services) {
      const ask = (await client.callTool('rollback', { service })).result as ToolResult
      expect(ask.resultType).toBe('input_required')
      const offered = (
        ask.inputRequests!.version!.params.requestedSchema as { properties: { version: { enum: string[] } } }
      ).properties.version.enum
      const retry = {
        inputResponses: { version: answer('accept', { version: offered[0]! }) },
        requestState: ask.requestState,
      }
      const replies = await Promise.all(
        Array.from({ length: PARALLEL }, () => client.callTool('rollback', { service }, retry)),
      )
      const texts = replies.map((r) => {
        expect(r.status).toBe(200)
        return textOf(r.result)
      })
      expect(
        texts.filter((t) => t.startsWith(`Rolled ${service} back`)),
        service,
      ).toHaveLength(1)
      const told = texts.filter((t) =>
        /^(Already accepted: this answer was acted on before|This answer is being acted on right now)/.test(
          t,
        ),
      )
      expect(told, service).toHaveLength(PARALLEL - 1)
      duplicates.push(...told)
    }

    let rollbacks = 0
    for (const service of services) {
      const history = (await client.callTool('deployment_history', { service, limit: 100 })).result!
        .structuredContent as {
        deployments: Array<{ kind: string; by: string }>
      }
      rollbacks += history.deployments.filter((d) => d.kind === 'rollback' && d.by.startsWith('mcp:')).length
    }
    expect(rollbacks).toBe(ROUNDS)
    expect(duplicates).toHaveLength(ROUNDS * (PARALLEL - 1))

    // The retries really were served by several processes, or the probe proved nothing.
    const serving = new Set(
      ops.logs
        .filter((l) => l.event === 'rollback' || String(l.event).startsWith('single_use_'))
        .map((l) => l.pid),
    )
    expect(serving.size).toBeGreaterThan(1)
  }, 30_000)

  it('keepsTheRequestStateKeysInA0600FileThatEveryWorkerShares', async () => {
    const { statSync } = await import('node:fs')
    expect(statSync(join(dir, 'state-keys.json')).mode & 0o777).toBe(0o600)
    // A state asked on one worker is answered on whichever worker takes the retry.
    for (let i = 0; i < 4; i++) {
      const ask = (await new McpClient(client.url).callTool('rollback', { service: 'edge-gateway' }))
        .result as ToolResult
      const declined = await new McpClient(client.url).callTool(
        'rollback',
        { service: 'edge-gateway' },
        { inputResponses: { version: answer('decline') }, requestState: ask.requestState },
      )
      expect(declined.status).toBe(200)
      expect(textOf(declined.result)).toContain('Nothing was done')
    }
  })

  it('serves2025ClientsOnAnyWorkerSessionsRealElicitationsAndAnswersCrossWorkers', async () => {
    const services = loadCatalogue(SHIPPED_CATALOGUE)
      .ids()
      .slice(ROUNDS, ROUNDS + 3)
    for (const service of services) {
      // A new session per service, each request on a fresh connection: the four workers share them.
      const handshake = await HandshakeClient.connect(client.url)
      for (let i = 0; i < 4; i++) expect(resultOf(await handshake.request('ping'))).toStrictEqual({})
      const reply = await handshake.callTool(
        'rollback',
        { service },
        {
          onRequest: (request) => {
            const schema = (
              request.params as { requestedSchema: { properties: { version: { enum: string[] } } } }
            ).requestedSchema
            return { result: { action: 'accept', content: { version: schema.properties.version.enum[0]! } } }
          },
        },
      )
      expect(reply.requests.map((r) => r.method)).toEqual(['elicitation/create'])
      expect(handshakeText(resultOf(reply))).toMatch(new RegExp(`^Rolled ${service} back`))
      expect((await handshake.delete()).status).toBe(200)
      expect((await handshake.request('ping')).status).toBe(404)
    }
  }, 30_000)
})
