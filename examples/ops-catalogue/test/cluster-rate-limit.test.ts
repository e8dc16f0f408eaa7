/**
 * @module cluster-rate-limit.test
 * A rate limit that holds across workers: `npm start -- --workers 2 --rate-limit 10/60` as a real
 * process tree on each shared backend (SQLite; Redis and PostgreSQL when their test URLs are set),
 * 30 tool calls from one caller at once. Exactly 10 are served, whichever worker took them; the
 * 20 others get HTTP 429 with `Retry-After` and the JSON-RPC refusal naming the limit. Then every
 * call is refused, by both workers (their debug log says so): the count held across processes
 * rather than inside one. The demo's data in the test Redis or PostgreSQL is cleared first.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoBackends } from './demo-backends.ts'
import { McpClient } from './mcp-client.ts'
import { freePort, OpsProcess } from './spawn-ops.ts'

const WORKERS = 2
const CALLS = 30
const LIMIT = 10
const redis = process.env['TESSERA_TEST_REDIS_URL']
const postgres = process.env['TESSERA_TEST_POSTGRES_URL']
const backends = demoBackends('cluster-rate-limit')

/** Forgets the buckets earlier runs left in the test Redis or PostgreSQL (the demo's only). */
async function resetBuckets(name: string): Promise<void> {
  if (name === 'redis') {
    const admin = new Redis(redis!)
    const keys = await admin.keys('ops-catalogue:rate-limit:*')
    if (keys.length > 0) await admin.del(...keys)
    await admin.quit()
  }
  if (name === 'postgres') {
    const admin = new pg.Client({ connectionString: postgres })
    await admin.connect()
    await admin.query('DROP TABLE IF EXISTS "ops_rate_limits"')
    await admin.end()
  }
}

describe.each(backends)(`--workers ${WORKERS} --rate-limit ${LIMIT}/60 on $name`, ({ name, flags, skip }) => {
  const dir = mkdtempSync(join(tmpdir(), `ops-catalogue-limits-${name}-`))
  let ops: OpsProcess | undefined
  let client: McpClient

  beforeAll(async () => {
    if (skip) return
    await resetBuckets(name)
    const port = await freePort()
    const args = ['--workers', String(WORKERS), '--data', dir, '--rate-limit', `${LIMIT}/60`, ...flags]
    ops = new OpsProcess(args, { PORT: String(port), LOG_LEVEL: 'debug' })
    expect((await ops.waitForEvent('cluster_listening')).workers).toBe(WORKERS)
    client = new McpClient(`http://127.0.0.1:${port}/mcp`)
  }, 30_000)

  afterAll(async () => {
    const code = await ops?.stop()
    rmSync(dir, { recursive: true, force: true })
    if (!skip) expect(code).toBe(0)
  })

  it.skipIf(skip !== undefined)(
    'serves10Of30CallsAcrossBothWorkersAndRefusesTheRestWith429',
    async () => {
      const replies = await Promise.all(
        Array.from({ length: CALLS }, () => client.callTool('service_status', { service: 'checkout' })),
      )
      const served = replies.filter((reply) => reply.status === 200)
      const refused = replies.filter((reply) => reply.status === 429)
      expect(served).toHaveLength(LIMIT)
      expect(refused).toHaveLength(CALLS - LIMIT)
      for (const reply of served) expect(reply.result?.isError).not.toBe(true)
      for (const reply of refused) {
        // A token comes back every 6 s: no refusal asks for more than that.
        const retryAfter = Number(reply.headers.get('retry-after'))
        expect(retryAfter).toBeGreaterThanOrEqual(1)
        expect(retryAfter).toBeLessThanOrEqual(6)
        expect(reply.error).toMatchObject({
          code: -32600,
          message: expect.stringMatching(
            /^Too many requests: tools\/call for every caller is limited to 10 per 60000 ms; retry in \d s\.$/,
          ),
          data: { retryAfterMs: expect.any(Number) },
        })
      }
      // The bucket is empty on every worker: more calls are all refused, and both workers refuse
      // some (their debug log says so). Had each worker kept a bucket of its own, the one that
      // served fewer than 10 would still serve.
      const more = await Promise.all(
        Array.from({ length: CALLS }, () => client.callTool('service_status', { service: 'checkout' })),
      )
      expect(more.map((reply) => reply.status)).toEqual(Array(CALLS).fill(429))
      await expect
        .poll(() => new Set(ops!.logs.filter((line) => line.event === 'rate_limited').map((l) => l.pid)).size)
        .toBe(WORKERS)
      // Other methods are not limited.
      expect((await client.request('tools/list')).status).toBe(200)
    },
    30_000,
  )
})
