/**
 * @module task-worker
 * A server process for the task kill test, spawned with `node --import tsx`: a tool that runs
 * as a task and writes a line to a shared work log when it starts and when it finishes, and a
 * single-use tool that becomes a task after its question and writes its work with its
 * idempotency key (finding it again on a later run), over the
 * task store of the backend it is given, with a short task lease. It prints its URL as one JSON
 * line on stdout once it listens.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { createServer, elicitForm } from '@tessera/core'
import { listen } from '@tessera/core/http'
import type { TaskStore } from '@tessera/core/ports'
import { generateStateKey } from '@tessera/core/request-state'
import { postgresTaskStore } from '@tessera/store-postgres'
import { redisTaskStore } from '@tessera/store-redis'
import { sqliteTaskStore } from '@tessera/store-sqlite'
import { z } from 'zod'
import { silentLogger } from '../helpers/silent-logger.ts'

export interface TaskWorkerConfig {
  backend: 'sqlite' | 'redis' | 'postgres'
  /** sqlite file, redis URL or postgres connection string. */
  target: string
  /** redis key prefix or sqlite/postgres table. */
  namespace: string
  logPath: string
  leaseMs: number
  workMs: number
}

function openTasks(config: TaskWorkerConfig): TaskStore {
  if (config.backend === 'sqlite') return sqliteTaskStore({ path: config.target, table: config.namespace })
  if (config.backend === 'redis') return redisTaskStore({ url: config.target, keyPrefix: config.namespace })
  return postgresTaskStore({ connectionString: config.target, table: config.namespace })
}

const config = JSON.parse(process.argv[2] ?? '{}') as TaskWorkerConfig
const app = createServer({
  name: 'task-worker',
  version: '1.0.0',
  logger: silentLogger,
  requestState: { keys: [generateStateKey('task-worker')] },
  stores: { tasks: openTasks(config) },
  tasks: { leaseMs: config.leaseMs },
})
/** The keys of the work this tool committed, as a handler that stores its key with its work reads them. */
function committed(key: string): boolean {
  return existsSync(config.logPath) && readFileSync(config.logPath, 'utf8').includes(`work ${key} `)
}

app.tool(
  'rollout',
  {
    description: 'asks, then acts once under its idempotency key, as a task; then lingers',
    singleUse: true,
    task: { support: 'optional', start: 'handler' },
  },
  async (_args, ctx) => {
    const answer = await ctx.ask('go', elicitForm({ message: 'Go?', schema: z.object({}) }))
    if (answer.action !== 'accept') return 'not rolled out'
    const key = ctx.request.idempotencyKey ?? 'no key'
    if (committed(key)) {
      appendFileSync(config.logPath, `found ${key} ${process.pid}\n`)
      return `already rolled out under ${key}`
    }
    await ctx.startTask()
    appendFileSync(config.logPath, `work ${key} ${process.pid}\n`)
    await sleep(config.workMs, undefined, { signal: ctx.signal })
    return `rolled out under ${key}`
  },
)

app.tool('deploy', { description: 'long work, logged', task: 'required' }, async (_args, ctx) => {
  appendFileSync(config.logPath, `start ${ctx.task?.id} ${process.pid}\n`)
  await sleep(config.workMs, undefined, { signal: ctx.signal })
  appendFileSync(config.logPath, `done ${ctx.task?.id} ${process.pid}\n`)
  return 'deployed'
})
const running = await listen(app, { host: '127.0.0.1', port: 0 })
process.stdout.write(`${JSON.stringify({ url: running.url, pid: process.pid })}\n`)
