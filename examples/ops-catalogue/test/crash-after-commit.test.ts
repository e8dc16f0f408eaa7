/**
 * @module crash-after-commit.test
 * Exactly once across a crash, where the single-use guard alone cannot reach: the worker is
 * killed (SIGKILL, at a test hook) right after the rollback reached the deployment log and before
 * its single-use record said done. Once the lease has run out, the same answer re-sent to a new
 * process runs the handler again; it finds its own rollback under the answer's idempotency key
 * and reports it, as the first run would have, and the log shows one rollback.
 * The same holds for the rollback as a task: the worker dies after the commit, and the task, once
 * read after the lease, runs again under the answer's key, finds the rollback and completes with
 * it (never `failed` for a rollback that happened). On each backend:
 * SQLite, and Redis and PostgreSQL when their test URLs are set, each in a database of this
 * test's own (a Redis database number, a PostgreSQL schema per case) so no other test's data is touched.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { askRollback, McpClient, TASK_CAPABILITIES, type ToolResult, textOf } from './mcp-client.ts'
import { freePort, OpsProcess } from './spawn-ops.ts'

const redisUrl = process.env['TESSERA_TEST_REDIS_URL']
const postgresUrl = process.env['TESSERA_TEST_POSTGRES_URL']
/** The Redis database this test keeps the demo's data in: none of the others use it. */
const REDIS_DB = 7
const LEASE_SECONDS = 1
const SERVICE = 'notifications'

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

interface Backend {
  name: string
  skip?: string
  /** Flags for the demo, after preparing an empty place for its data. */
  prepare(): Promise<string[]>
}

const backends: Backend[] = [
  { name: 'sqlite', prepare: async () => [] },
  {
    name: 'redis',
    ...(redisUrl ? {} : { skip: 'TESSERA_TEST_REDIS_URL is not set' }),
    async prepare() {
      const url = new URL(redisUrl!)
      url.pathname = `/${REDIS_DB}`
      const admin = new Redis(url.toString())
      const clear = async () => {
        const keys = await admin.keys('ops-catalogue:*')
        if (keys.length > 0) await admin.del(...keys)
      }
      await clear()
      cleanups.push(async () => {
        await clear()
        await admin.quit()
      })
      return ['--redis', url.toString()]
    },
  },
  {
    name: 'postgres',
    ...(postgresUrl ? {} : { skip: 'TESSERA_TEST_POSTGRES_URL is not set' }),
    async prepare() {
      const schema = `ops_crash_${randomBytes(4).toString('hex')}`
      const admin = new pg.Client({ connectionString: postgresUrl })
      await admin.connect()
      await admin.query(`CREATE SCHEMA "${schema}"`)
      cleanups.push(async () => {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
        await admin.end()
      })
      const url = new URL(postgresUrl!)
      url.searchParams.set('options', `-c search_path=${schema}`)
      return ['--postgres', url.toString()]
    },
  },
]
for (const b of backends)
  if (b.skip) process.stderr.write(`crash-after-commit ${b.name} skipped: ${b.skip}\n`)

async function rollbacksOf(client: McpClient): Promise<number> {
  const history = (await client.callTool('deployment_history', { service: SERVICE, limit: 100 })).result!
    .structuredContent as { deployments: Array<{ kind: string }> }
  return history.deployments.filter((d) => d.kind === 'rollback').length
}

/**
 * The demo on `backend`'s fresh data, set to kill itself right after a rollback's commit; `args`
 * and `env` start the same demo again without the hook.
 */
async function crashingDemo(backend: Backend, rollbackSeconds: number) {
  const flags = await backend.prepare()
  const dir = mkdtempSync(join(tmpdir(), `ops-crash-${backend.name}-`))
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }))
  const port = await freePort()
  const args = [
    '--data',
    dir,
    '--rollback-seconds',
    String(rollbackSeconds),
    '--lease-seconds',
    String(LEASE_SECONDS),
    ...flags,
  ]
  const env = { PORT: String(port) }
  const crashing = new OpsProcess(args, { ...env, OPS_TEST_KILL_AFTER_COMMIT: '1' })
  await crashing.waitForEvent('listening')
  return { port, args, env, crashing }
}

describe.each(backends)('a worker killed between the commit and the record, on $name', (backend) => {
  it.skipIf(backend.skip !== undefined)(
    'aRetryAfterTheLeaseReportsTheOriginalRollbackAndTheLogHasOne',
    async () => {
      const { port, args, env, crashing } = await crashingDemo(backend, 0)
      const client = new McpClient(`http://127.0.0.1:${port}/mcp`)
      const before = await rollbacksOf(client)
      const asked = await askRollback(client, SERVICE)
      const retry = asked.accept()
      const lost = await client.callTool('rollback', { service: SERVICE }, retry).then(
        () => 'answered',
        () => 'connection lost',
      )
      expect(lost).toBe('connection lost')
      expect(await crashing.exited).toBeNull()

      const restarted = new OpsProcess(args, env)
      cleanups.push(async () => {
        await restarted.stop()
      })
      await restarted.waitForEvent('listening')
      await new Promise((resolve) => setTimeout(resolve, LEASE_SECONDS * 1000 + 200))
      const again = (await client.callTool('rollback', { service: SERVICE }, retry)).result!
      expect(textOf(again)).toMatch(
        new RegExp(`^Rolled ${SERVICE} back from \\S+ to ${asked.offered[0]} \\(deployment #`),
      )
      expect(again.structuredContent).toMatchObject({ outcome: 'rolled_back', to: asked.offered[0] })
      expect(await rollbacksOf(client)).toBe(before + 1)
      expect(restarted.logs.some((l) => l.event === 'rollback_found')).toBe(true)
      // From now on the record says done: a further copy is a replay, and still one rollback.
      const replayed = (await client.callTool('rollback', { service: SERVICE }, retry)).result!
      expect(textOf(replayed)).toMatch(/^Already accepted/)
      expect(await rollbacksOf(client)).toBe(before + 1)
    },
    40_000,
  )

  it.skipIf(backend.skip !== undefined)(
    'aRollbackTaskWhoseWorkerDiedCompletesWithTheRollbackItCommittedAndTheLogHasOne',
    async () => {
      const { port, args, env, crashing } = await crashingDemo(backend, 1)
      const client = new McpClient(`http://127.0.0.1:${port}/mcp`, { capabilities: TASK_CAPABILITIES })
      const before = await rollbacksOf(client)
      const asked = await askRollback(client, SERVICE)
      const created = (await client.callTool('rollback', { service: SERVICE }, asked.accept())).result!
      expect(created.resultType).toBe('task')
      const taskId = String((created as { taskId?: unknown }).taskId)
      expect(await crashing.exited).toBeNull()

      const restarted = new OpsProcess(args, env)
      cleanups.push(async () => {
        await restarted.stop()
      })
      await restarted.waitForEvent('listening')
      let task: TaskView | undefined
      for (let i = 0; i < 200 && !['completed', 'failed', 'cancelled'].includes(task?.status ?? ''); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        task = (await client.request<TaskView>('tasks/get', { taskId })).result
      }
      expect(task?.status).toBe('completed')
      expect(textOf(task?.result)).toMatch(
        new RegExp(`^Rolled ${SERVICE} back from \\S+ to ${asked.offered[0]} \\(deployment #`),
      )
      expect(await rollbacksOf(client)).toBe(before + 1)
      expect(restarted.logs.some((l) => l.event === 'rollback_found')).toBe(true)
    },
    40_000,
  )
})

interface TaskView {
  status: string
  result?: ToolResult
}
