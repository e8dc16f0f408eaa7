/**
 * @module worker.test
 * The ops catalogue as a Worker (src/worker/main-worker.ts), bundled the way wrangler bundles it
 * and served by workerd without Node compatibility as two Workers (two isolates) sharing both
 * Durable Object classes, kept on disk: it answers discovery and reads, one accepted rollback
 * answer sent to both isolates in parallel appends one rollback, and after workerd is killed and
 * started again on the same storage the answer still appends nothing more. Without workerd or the
 * built packages the suite is skipped and says why.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { workerdMissing } from '../../../packages/cloudflare/src/stores-in-workerd.fixture.ts'
import { McpHttpClient, resultOf } from '../../../test/helpers/mcp-http.ts'
import { type StartedWorkers, startWorkers } from '../../../test/runtimes/workerd.ts'

const skip = workerdMissing()
if (skip) process.stderr.write(`ops worker tests skipped: ${skip}\n`)

const storage = mkdtempSync(join(tmpdir(), 'tessera-ops-worker-'))
let workers: StartedWorkers | undefined
afterAll(async () => {
  await workers?.stop()
  rmSync(storage, { recursive: true, force: true })
})

const start = () =>
  startWorkers({
    entry: 'examples/ops-catalogue/src/worker/main-worker.ts',
    count: 2,
    storageDir: storage,
    durableObjects: [
      { className: 'TesseraDurableObject', binding: 'TESSERA' },
      { className: 'DeploymentLedger', binding: 'OPS_LEDGER' },
    ],
    text: { STATE_KEY: 'ops-worker-test-state-key-of-32-characters+' },
  })

interface History {
  deployments: { kind: string; version: string }[]
}

async function rollbacksOf(client: McpHttpClient, service: string): Promise<string[]> {
  const result = resultOf(await client.callTool('deployment_history', { service }))
  const history = result.structuredContent as History
  return history.deployments.filter((d) => d.kind === 'rollback').map((d) => d.version)
}

describe.skipIf(skip !== undefined)('the ops catalogue as a Worker', () => {
  it('rollsBackOnceForCopiesOfOneAnswerAcrossIsolatesAndAfterARestart', async () => {
    workers = await start()
    const clients = workers.urls.map((url) => new McpHttpClient(`${url}/mcp`))
    expect(await rollbacksOf(clients[1]!, 'checkout')).toEqual([])

    const asked = resultOf(await clients[0]!.callTool('rollback', { service: 'checkout' }))
    expect(asked.resultType).toBe('input_required')
    const answer = {
      inputResponses: { version: { action: 'accept', content: { version: '2026.10.1' } } },
      requestState: asked.requestState,
    }
    const copies = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        clients[n % 2]!.callTool('rollback', { service: 'checkout' }, { extra: answer }),
      ),
    )
    for (const copy of copies) expect(copy.status).toBe(200)
    expect(await rollbacksOf(clients[0]!, 'checkout')).toEqual(['2026.10.1'])
    expect(await rollbacksOf(clients[1]!, 'checkout')).toEqual(['2026.10.1'])

    await workers.stop()
    workers = await start()
    const again = workers.urls.map((url) => new McpHttpClient(`${url}/mcp`))
    for (const client of again) {
      const later = await client.callTool('rollback', { service: 'checkout' }, { extra: answer })
      expect(later.status).toBe(200)
    }
    expect(await rollbacksOf(again[0]!, 'checkout')).toEqual(['2026.10.1'])
  }, 60_000)
})
