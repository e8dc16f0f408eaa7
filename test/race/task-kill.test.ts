/**
 * @module task-kill.test
 * The worker running a task dies (SIGKILL, mid-work) on each shared backend: another server on
 * the same task store finds the task failed once the dead worker's lease has run out, says why,
 * keeps it failed, and the work ran once (the shared work log has one start and no end). A dead
 * worker's task never stays `working` and is never run a second time.
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
import { McpHttpClient, resultOf } from '../helpers/mcp-http.ts'
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

describe.each(backends)('a task whose worker is killed, on $name', ({ name, target, skip }) => {
  it.skipIf(skip !== undefined)(
    'endsFailedOnceTheLeaseRunsOutAndNeverRunsTwice',
    async () => {
      const logPath = join(dir, `work-${name}.log`)
      const namespace = name === 'redis' ? `tessera-test:${run}:task:` : `task_kill_${run}`
      const config: TaskWorkerConfig = {
        backend: name,
        target: target!,
        namespace,
        logPath,
        leaseMs: LEASE_MS,
        workMs: 30_000,
      }
      const first = await startWorker(config)
      const second = await startWorker(config)
      try {
        const created = resultOf(
          await new McpHttpClient(first.url).callTool('deploy', {}, { caps: TASK_CAPS }),
        )
        const taskId = String(created.taskId)
        while (workLog(logPath).length === 0) await sleep(10)
        const killedAt = Date.now()
        first.child.kill('SIGKILL')
        const other = new McpHttpClient(second.url)
        const failed = await pollTask(other, taskId, ['failed', 'completed', 'cancelled'], {
          timeoutMs: 10_000,
        })
        expect(Date.now() - killedAt).toBeLessThan(LEASE_MS * 4)
        expect(failed).toMatchObject({
          status: 'failed',
          error: { code: -32603, message: 'The worker running this task stopped before the task finished.' },
        })
        await sleep(LEASE_MS * 2)
        expect((await pollTask(other, taskId, ['failed'])).status).toBe('failed')
        expect(workLog(logPath)).toEqual([`start ${taskId} ${first.child.pid}`])
      } finally {
        first.child.kill('SIGKILL')
        second.child.kill('SIGKILL')
      }
    },
    30_000,
  )
})
