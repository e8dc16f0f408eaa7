/**
 * @module health-probes.test
 * The opt-in probes over real HTTP on 127.0.0.1: `/healthz` answers while the process does,
 * `/readyz` names its checks and turns unready when the Redis the stores live on stops, and ready
 * again when it comes back. The Redis is one of this test's own (a `redis-server` on a free port),
 * so stopping it disturbs no other test; without the binary the Redis case is skipped and says so.
 */
import { createServer } from '@tessera/core'
import { createFetchHandler, listen } from '@tessera/core/http'
import { generateStateKey } from '@tessera/core/request-state'
import { redisStores } from '@tessera/store-redis'
import { afterAll, describe, expect, it } from 'vitest'
import { capturingLogger } from '../helpers/mcp-http.ts'
import { hasRedisServer, type OwnRedis, startOwnRedis } from '../helpers/own-redis.ts'
import { sleep } from '../helpers/timing.ts'

if (!hasRedisServer) process.stderr.write('health-probes Redis case skipped: no redis-server binary\n')

async function probe(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url)
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const redises: OwnRedis[] = []
afterAll(async () => {
  for (const redis of redises) await redis.stop()
})

describe('health probes', () => {
  it('answerHealthzAndReadyzOnlyWhenAskedForOnBothFaces', async () => {
    const app = createServer({ name: 'probes', version: '1', logger: capturingLogger() })
    const off = await (await createFetchHandler(app)(new Request('http://127.0.0.1/healthz'))).text()
    expect(JSON.parse(off).error.code).toBe(-32600)
    const handler = createFetchHandler(app, { health: true })
    const health = await handler(new Request('http://127.0.0.1/healthz'))
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }])
    const ready = await handler(new Request('http://127.0.0.1/readyz', { headers: { host: 'pod-10-0-0-7' } }))
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready', checks: { 'requestState.keys': 'ok' } })
    expect(ready.headers.get('cache-control')).toBe('no-store')
    expect((await handler(new Request('http://127.0.0.1/readyz', { method: 'POST' }))).status).toBe(405)
    const running = await listen(app, { host: '127.0.0.1', port: 0, health: true })
    try {
      const root = running.url.replace(/\/mcp$/, '')
      expect(await probe(`${root}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } })
    } finally {
      await running.close()
    }
  })

  it.skipIf(!hasRedisServer)(
    'turnsUnreadyWhenRedisStopsAndReadyWhenItReturns',
    async () => {
      const redis = await startOwnRedis()
      redises.push(redis)
      const app = createServer({
        name: 'probes',
        version: '1',
        logger: capturingLogger(),
        requestState: { keys: [generateStateKey('probes')] },
        stores: redisStores({ url: redis.url, prefix: 'probes:', timeoutMs: 500 }),
      })
      const running = await listen(app, { host: '127.0.0.1', port: 0, health: true })
      const ready = `${running.url.replace(/\/mcp$/, '')}/readyz`
      try {
        const up = await probe(ready)
        expect(up.status).toBe(200)
        expect(up.body.checks).toEqual({
          'requestState.keys': 'ok',
          'stores.replay': 'ok',
          'stores.sessions': 'ok',
          'stores.tasks': 'ok',
          'stores.bus': 'ok',
        })
        await redis.stop()
        const started = Date.now()
        const down = await probe(ready)
        expect(Date.now() - started).toBeLessThan(3000)
        expect(down.status).toBe(503)
        expect(down.body).toMatchObject({ status: 'unready', checks: { 'stores.replay': 'down' } })
        expect(JSON.stringify(down.body)).not.toContain('127.0.0.1')
        await redis.restart()
        let back = down
        for (let i = 0; i < 40 && back.status !== 200; i++) {
          await sleep(250)
          back = await probe(ready)
        }
        expect(back).toMatchObject({ status: 200, body: { status: 'ready' } })
      } finally {
        await running.close()
      }
    },
    30_000,
  )
})
