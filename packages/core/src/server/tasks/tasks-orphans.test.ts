/**
 * @module tasks-orphans.test
 * A task whose worker died, through the fetch face: one acting on a single-use answer runs again
 * from the top under the answer's idempotency key, for a reader who may run it (its owner, with
 * the tool's scopes) and at most three times; one whose cancel was requested never runs again;
 * each of those ends with an outcome that says it is unknown, never `failed`.
 */
import { describe, expect, it } from 'vitest'
import { sampleTask } from '../../../../../test/contracts/task-store-contract.ts'
import { fetchClient } from '../../../../../test/helpers/fetch-client.ts'
import {
  bearer,
  bearerJsonAuth,
  capturingLogger,
  errorOf,
  resultOf,
  textOf,
} from '../../../../../test/helpers/mcp-http.ts'
import { pollTask, TASK_CAPS } from '../../../../../test/helpers/tasks.ts'
import { createServer } from '../create-server.ts'
import { memoryTaskStore } from './task-store.ts'

const UNKNOWN = { 'dev.tessera/outcome': 'unknown' }

function server() {
  const tasks = memoryTaskStore()
  const runs: Array<string | undefined> = []
  const app = createServer({
    name: 'tasks-orphans',
    version: '1.0.0',
    logger: capturingLogger(),
    stores: { tasks },
  })
  app.tool('keyed', { description: 'reports its key', task: 'optional' }, async (_a, ctx) => {
    runs.push(ctx.request.idempotencyKey)
    return `ran under ${ctx.request.idempotencyKey}`
  })
  return { app, tasks, runs }
}

/** A task of `keyed` whose worker died a moment ago, as its store holds it. */
function orphan(call: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const now = Date.now()
  const base = sampleTask()
  return sampleTask({
    lease: { fence: 'dead-worker', until: now - 1 },
    call: { ...base.call, tool: 'keyed', arguments: {}, idempotencyKey: 'key-1', ...call },
    ...extra,
  })
}

describe('tasks: a dead worker', () => {
  it('runsAKeyedTaskAgainUnderItsIdempotencyKey', async () => {
    const { app, tasks, runs } = server()
    const task = orphan()
    await tasks.create(task)
    const ended = await pollTask(fetchClient(app), task.id)
    expect(ended).toMatchObject({ status: 'completed' })
    expect(textOf(ended.result as Record<string, unknown>)).toBe('ran under key-1')
    expect(runs).toEqual(['key-1'])
  })

  it('neverRunsAgainATaskWhoseCancelWasRequested', async () => {
    const { app, tasks, runs } = server()
    const task = orphan({}, { cancelRequested: true })
    await tasks.create(task)
    expect(await pollTask(fetchClient(app), task.id)).toMatchObject({
      status: 'completed',
      result: { isError: true, _meta: UNKNOWN },
    })
    expect(runs).toEqual([])
  })

  it('endsAKeyedTaskThatRanAgainThreeTimesAsUnknown', async () => {
    const { app, tasks, runs } = server()
    const task = orphan({ reruns: 3 })
    await tasks.create(task)
    expect(await pollTask(fetchClient(app), task.id)).toMatchObject({ result: { _meta: UNKNOWN } })
    expect(runs).toEqual([])
  })

  it('waitsForAReaderWithTheToolsScopesBeforeRunningAgain', async () => {
    const tasks = memoryTaskStore()
    const runs: string[] = []
    const app = createServer({
      name: 'tasks-orphans',
      version: '1.0.0',
      logger: capturingLogger(),
      stores: { tasks },
    })
    app.tool('guarded', { description: 'needs admin', scopes: ['admin'], task: 'required' }, async () => {
      runs.push('ran')
      return 'guarded work'
    })
    const client = fetchClient(app, { auth: bearerJsonAuth })
    const admin = bearer({ subject: 'ops', issuer: 'https://id.example', scopes: ['admin'] })
    const weak = bearer({ subject: 'ops', issuer: 'https://id.example', scopes: [] })
    const taskId = String(
      resultOf(await client.callTool('guarded', {}, { caps: TASK_CAPS, headers: admin })).taskId,
    )
    await pollTask(client, taskId, undefined, { headers: admin })
    // The same task as a dead worker leaves it: still working, its lease run out, keyed.
    const stored = (await tasks.get(taskId))!
    const { result: _, ...working } = stored
    const dead = {
      ...working,
      version: stored.version + 1,
      status: 'working' as const,
      lease: { fence: 'dead-worker', until: Date.now() - 1 },
      call: { ...stored.call, idempotencyKey: 'key-2' },
    }
    expect(await tasks.replace(taskId, stored.version, dead)).toBe(true)
    runs.length = 0
    const refused = await client.request('tasks/get', { taskId }, { caps: TASK_CAPS, headers: weak })
    expect(errorOf(refused)).toMatchObject({ data: { requiredScopes: ['admin'] } })
    expect((await tasks.get(taskId))?.lease?.fence).toBe('dead-worker')
    expect(runs).toEqual([])
    const ended = await pollTask(client, taskId, undefined, { headers: admin })
    expect(textOf(ended.result as Record<string, unknown>)).toBe('guarded work')
    expect(runs).toEqual(['ran'])
  })
})
