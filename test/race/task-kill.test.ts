/**
 * @module task-kill.test
 * The worker running a task dies (SIGKILL, mid-work) on each shared backend. Another server on
 * the same task store, once the dead worker's lease has run out: ends a task without an
 * idempotency key with an outcome that says it is unknown and keeps it so, and the work ran once
 * (the shared work log has one start and no end); runs a single-use task again under its key, so
 * the handler finds the work it committed before the kill and the task completes saying so, the
 * work done once. A dead worker's task never stays `working`, and never says `failed` for work
 * that was done.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { McpHttpClient, resultOf, textOf } from '../helpers/mcp-http.ts'
import { pollTask, TASK_CAPS } from '../helpers/tasks.ts'
import type { TaskWorkerConfig } from './task-worker.ts'

const redis = process.env['TESSERA_TEST_REDIS_URL']
const postgres = process.env['TESSERA_TEST_POSTGRES_URL']
const WORKER = fileURLToPath(new URL('./task-worker.ts', import.meta.url))
const LEASE_MS = 600
const dir = mkdtempSync(join(tmpdir(), 'tessera-task-kill-'))
const run = randomBytes(4).toString('hex')
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  if (postgres) {
    const admin = new pg.Client({ connectionString: postgres })
    await admin.connect()
    await admin.query(`DROP TABLE IF EXISTS "task_kill_${run}"`)
    await admin.end()
  }
})

const backends: Array<{ name: TaskWorkerConfig['backend']; target: string | undefined; skip?: string }> = [
  { name: 'sqlite', target: join(dir, 'tasks.db') },
  { name: 'redis', target: redis, skip: redis ? undefined : 'TESSERA_TEST_REDIS_URL is not set' },
  { name: 'postgres', target: postgres, skip: postgres ? undefined : 'TESSERA_TEST_POSTGRES_URL is not set' },
]
for (const b of backends) if (b.skip) process.stderr.write(`task-kill ${b.name} skipped: ${b.skip}\n`)

/** Starts a worker and resolves with its process and URL once it listens. */
async function startWorker(
  config: TaskWorkerConfig,
): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(config)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`task worker exited (${code}): ${stderr}`)))
  })
  return { child, url: (JSON.parse(line) as { url: string }).url }
}

function workLog(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').filter(Boolean) : []
}

/** Two workers on one backend's task store, with one work log named after `kase`. */
async function twoWorkers(backend: TaskWorkerConfig['backend'], target: string, kase: string) {
  const logPath = join(dir, `${kase}-${backend}.log`)
  const namespace = backend === 'redis' ? `tessera-test:${run}:${kase}:` : `task_kill_${run}`
  const config: TaskWorkerConfig = { backend, target, namespace, logPath, leaseMs: LEASE_MS, workMs: 30_000 }
  return { logPath, first: await startWorker(config), second: await startWorker(config) }
}

describe.each(backends)('a task whose worker is killed, on $name', ({ name, target, skip }) => {
  it.skipIf(skip !== undefined)(
    'endsWithAnUnknownOutcomeOnceTheLeaseRunsOutAndNeverRunsTwice',
    async () => {
      const { logPath, first, second } = await twoWorkers(name, target!, 'task')
      try {
        const created = resultOf(
          await new McpHttpClient(first.url).callTool('deploy', {}, { caps: TASK_CAPS }),
        )
        const taskId = String(created.taskId)
        while (workLog(logPath).length === 0) await sleep(10)
        const killedAt = Date.now()
        first.child.kill('SIGKILL')
        const other = new McpHttpClient(second.url)
        const ended = await pollTask(other, taskId, ['failed', 'completed', 'cancelled'], {
          timeoutMs: 10_000,
        })
        expect(Date.now() - killedAt).toBeLessThan(LEASE_MS * 4)
        expect(ended).toMatchObject({
          status: 'completed',
          result: { isError: true, _meta: { 'dev.tessera/outcome': 'unknown' } },
        })
        await sleep(LEASE_MS * 2)
        expect(await pollTask(other, taskId)).toEqual(ended)
        expect(workLog(logPath)).toEqual([`start ${taskId} ${first.child.pid}`])
      } finally {
        first.child.kill('SIGKILL')
        second.child.kill('SIGKILL')
      }
    },
    30_000,
  )

  it.skipIf(skip !== undefined)(
    'runsASingleUseTaskAgainUnderItsKeySoItReportsTheWorkItDidOnce',
    async () => {
      const { logPath, first, second } = await twoWorkers(name, target!, 'rollout')
      try {
        const client = new McpHttpClient(first.url)
        const asked = resultOf(await client.callTool('rollout', {}, { caps: TASK_CAPS }))
        expect(asked.resultType).toBe('input_required')
        const answer = { go: { action: 'accept', content: {} } }
        const extra = { inputResponses: answer, requestState: asked.requestState }
        const created = resultOf(await client.callTool('rollout', {}, { caps: TASK_CAPS, extra }))
        expect(created.resultType).toBe('task')
        const taskId = String(created.taskId)
        while (!workLog(logPath).some((line) => line.startsWith('work '))) await sleep(5)
        first.child.kill('SIGKILL')
        const other = new McpHttpClient(second.url)
        const ended = await pollTask(other, taskId, ['failed', 'completed', 'cancelled'], {
          timeoutMs: 10_000,
        })
        const [work] = workLog(logPath)
        const key = work!.split(' ')[1]
        expect(ended.status).toBe('completed')
        expect(textOf(ended.result as Record<string, unknown>)).toBe(`already rolled out under ${key}`)
        expect(workLog(logPath)).toEqual([
          `work ${key} ${first.child.pid}`,
          `found ${key} ${second.child.pid}`,
        ])
        await sleep(LEASE_MS * 2)
        expect(await pollTask(other, taskId)).toEqual(ended)
      } finally {
        first.child.kill('SIGKILL')
        second.child.kill('SIGKILL')
      }
    },
    30_000,
  )
})
