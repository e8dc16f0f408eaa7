/**
 * @module cluster-listen.test
 * The demo emits changes, and they reach listeners wherever they are: `npm start -- --workers 2`
 * as a real process tree, four `subscriptions/listen` streams on `ops://catalogue` opened on
 * their own connections (so both workers hold some), then one rollback, answered on whichever
 * worker: every stream receives `notifications/resources/updated` for the catalogue, which shows
 * every service's current version.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { McpHttpClient, SseReader } from '../../../test/helpers/mcp-http.ts'
import { askRollback, McpClient } from './mcp-client.ts'
import { freePort, OpsProcess } from './spawn-ops.ts'

const STREAMS = 4
const dir = mkdtempSync(join(tmpdir(), 'ops-cluster-listen-'))
let ops: OpsProcess
let url: string

beforeAll(async () => {
  const port = await freePort()
  ops = new OpsProcess(['--workers', '2', '--data', dir, '--rollback-seconds', '0'], {
    PORT: String(port),
    LOG_LEVEL: 'debug',
  })
  expect((await ops.waitForEvent('cluster_listening')).workers).toBe(2)
  url = `http://127.0.0.1:${port}/mcp`
}, 30_000)

afterAll(async () => {
  const code = await ops?.stop()
  rmSync(dir, { recursive: true, force: true })
  expect(code).toBe(0)
})

describe('a rollback on a cluster', () => {
  it('reachesEveryListenerOfTheCatalogueOnEveryWorker', async () => {
    const streams: SseReader[] = []
    for (let i = 0; i < STREAMS; i++) {
      const response = await new McpHttpClient(url).open(
        'subscriptions/listen',
        { notifications: { resourceSubscriptions: ['ops://catalogue'] } },
        { id: `catalogue-${i}` },
      )
      expect(response.status).toBe(200)
      const stream = new SseReader(response)
      expect((await stream.next())?.method).toBe('notifications/subscriptions/acknowledged')
      streams.push(stream)
    }
    const holders = new Set(ops.logs.filter((l) => l.event === 'listen_opened').map((l) => l.pid))
    expect(holders.size).toBe(2)

    const client = new McpClient(url)
    const answer = (await askRollback(client, 'inventory')).accept()
    const done = (await client.callTool('rollback', { service: 'inventory' }, answer)).result!
    expect(done.structuredContent).toMatchObject({ outcome: 'rolled_back' })
    for (const stream of streams) {
      expect(await stream.next(5_000)).toMatchObject({
        method: 'notifications/resources/updated',
        params: { uri: 'ops://catalogue' },
      })
      await stream.cancel()
    }
  }, 30_000)
})
