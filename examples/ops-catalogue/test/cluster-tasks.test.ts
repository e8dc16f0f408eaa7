/**
 * @module cluster-tasks.test
 * The rollback as a task where duplicates are most dangerous: `npm start -- --workers 4` as a
 * real process tree on each shared backend (SQLite; Redis and PostgreSQL when their test URLs are
 * set), one accepted answer re-sent four times at once by a client that declares the tasks
 * extension. Every copy gets the same task, whichever worker took it; the task is read on any
 * worker; the deployment log shows one rollback. A cancel, taken by whichever worker its
 * connection reaches, stops the rollout on the worker running it, before the switch. The demo's data in the test Redis or PostgreSQL
 * is cleared first, so every run starts from the seeded history, as a fresh install would.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoBackends } from './demo-backends.ts'
import { askRollback, McpClient, TASK_CAPABILITIES, type Task, taskOf, textOf } from './mcp-client.ts'
import { freePort, OpsProcess } from './spawn-ops.ts'

const WORKERS = 4
const PARALLEL = 4
const redis = process.env['TESSERA_TEST_REDIS_URL']
const postgres = process.env['TESSERA_TEST_POSTGRES_URL']
const backends = demoBackends('cluster-tasks')

/** Forgets what earlier runs left of the demo in the test Redis or PostgreSQL (its prefix and tables only). */
async function resetDemoData(name: string): Promise<void> {
  if (name === 'redis') {
    const admin = new Redis(redis!)
    const keys = await admin.keys('ops-catalogue:*')
    if (keys.length > 0) await admin.del(...keys)
    await admin.quit()
  }
  if (name === 'postgres') {
    const admin = new pg.Client({ connectionString: postgres })
    await admin.connect()
    const tables = [
      'deployments',
      'single_use',
      'sessions',
      'stream_events',
      'stream_events_streams',
      'tasks',
    ]
    await admin.query(`DROP TABLE IF EXISTS ${tables.map((t) => `"ops_${t}"`).join(', ')}`)
    await admin.end()
  }
}

async function rollbacksOf(client: McpClient, service: string): Promise<number> {
  const history = (await client.callTool('deployment_history', { service, limit: 100 })).result!
    .structuredContent as { deployments: Array<{ kind: string }> }
  return history.deployments.filter((d) => d.kind === 'rollback').length
}

describe.each(backends)(`--workers ${WORKERS} on $name`, ({ name, flags, skip }) => {
  const dir = mkdtempSync(join(tmpdir(), `ops-catalogue-tasks-${name}-`))
  let ops: OpsProcess | undefined
  let client: McpClient

  beforeAll(async () => {
    if (skip) return
    await resetDemoData(name)
    const port = await freePort()
    ops = new OpsProcess(['--workers', String(WORKERS), '--data', dir, '--rollback-seconds', '1', ...flags], {
      PORT: String(port),
    })
    expect((await ops.waitForEvent('cluster_listening')).workers).toBe(WORKERS)
    client = new McpClient(`http://127.0.0.1:${port}/mcp`, { capabilities: TASK_CAPABILITIES })
  }, 30_000)

  afterAll(async () => {
    const code = await ops?.stop()
    rmSync(dir, { recursive: true, force: true })
    if (ops) expect(code).toBe(0)
  })

  it.skipIf(skip !== undefined)(
    `${PARALLEL}ParallelCopiesOfOneAnswerGetOneTaskAndRollBackOnce`,
    async () => {
      const service = 'payments-gateway'
      const before = await rollbacksOf(client, service)
      const retry = (await askRollback(client, service)).accept()
      const replies = await Promise.all(
        Array.from({ length: PARALLEL }, () => client.callTool('rollback', { service }, retry)),
      )
      const tasks = replies.map(taskOf)
      expect(tasks.map((t) => t.resultType)).toEqual(Array(PARALLEL).fill('task'))
      expect(new Set(tasks.map((t) => t.taskId)).size).toBe(1)
      let task = tasks[0]!
      for (let i = 0; i < 200 && !['completed', 'failed', 'cancelled'].includes(task.status); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        task = (await client.request<Task>('tasks/get', { taskId: task.taskId })).result!
      }
      expect(task.status).toBe('completed')
      expect(textOf(task.result)).toMatch(new RegExp(`^Rolled ${service} back`))
      expect(await rollbacksOf(client, service)).toBe(before + 1)
      // The copies really were served by several processes, or the probe proved nothing.
      const serving = new Set(
        ops!.logs
          .filter((l) => l.event === 'rollback' || String(l.event).startsWith('single_use_'))
          .map((l) => l.pid),
      )
      expect(serving.size).toBeGreaterThan(1)
    },
    30_000,
  )

  it.skipIf(skip !== undefined)(
    'aCancelOnAnyWorkerStopsTheRolloutOnTheWorkerRunningIt',
    async () => {
      const service = 'identity'
      const before = await rollbacksOf(client, service)
      const created = taskOf(
        await client.callTool('rollback', { service }, (await askRollback(client, service)).accept()),
      )
      expect(created.resultType).toBe('task')
      const other = new McpClient(client.url, { capabilities: TASK_CAPABILITIES })
      expect((await other.request('tasks/cancel', { taskId: created.taskId })).result).toMatchObject({
        resultType: 'complete',
      })
      let task = created
      for (let i = 0; i < 100 && !['completed', 'failed', 'cancelled'].includes(task.status); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        task = (await other.request<Task>('tasks/get', { taskId: created.taskId })).result!
      }
      expect(task.status).toBe('cancelled')
      expect(await rollbacksOf(client, service)).toBe(before)
    },
    30_000,
  )
})
