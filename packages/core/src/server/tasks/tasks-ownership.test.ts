/**
 * @module tasks-ownership.test
 * Who may touch a task and what happens when its worker is gone, through the fetch face: another
 * principal's task is an unknown task for every method; two servers on one task store and one bus
 * (as two instances) serve each other's tasks and a cancel reaches the instance running the work;
 * a dead worker's task ends with an outcome that says it is unknown, and stays so; a worker that loses its lease stops its handler;
 * a server that shuts down ends its running tasks failed; and a task store that cannot take a
 * task lets the call go on synchronously.
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
import { sleep } from '../../../../../test/helpers/timing.ts'
import { createServer } from '../create-server.ts'
import type { McpServer } from '../mcp-server.ts'
import { memoryNotificationBus, type NotificationBus } from '../notification-bus.ts'
import { memoryTaskStore, type TaskStore } from './task-store.ts'

interface Shared {
  tasks: TaskStore
  bus: NotificationBus
}

function instance(shared: Shared, options: { leaseMs?: number } = {}): { app: McpServer; aborts: string[] } {
  const aborts: string[] = []
  const app = createServer({
    name: 'tasks-owned',
    version: '1.0.0',
    logger: capturingLogger(),
    stores: shared,
    tasks: { leaseMs: options.leaseMs ?? 15_000 },
  })
  app.tool('wait', { description: 'waits for its signal', task: 'optional' }, async (_a, ctx) => {
    await new Promise<void>((_, reject) => {
      ctx.signal.addEventListener('abort', () => {
        aborts.push(String(ctx.signal.reason))
        reject(ctx.signal.reason)
      })
    })
    return 'never'
  })
  app.tool('quick', { description: 'answers at once', task: 'optional' }, async () => 'quick work')
  return { app, aborts }
}

const UNKNOWN_OUTCOME = { 'dev.tessera/outcome': 'unknown' }

const shared = (): Shared => ({ tasks: memoryTaskStore(), bus: memoryNotificationBus() })

describe('tasks: ownership', () => {
  it('answersAnotherPrincipalsTaskLikeAnUnknownOneForEveryMethod', async () => {
    const { app } = instance(shared())
    const client = fetchClient(app, { auth: bearerJsonAuth })
    const alice = bearer({ subject: 'alice', issuer: 'https://id.example' })
    const mallory = bearer({ subject: 'mallory', issuer: 'https://id.example' })
    const created = resultOf(await client.callTool('quick', {}, { caps: TASK_CAPS, headers: alice }))
    const taskId = String(created.taskId)
    expect((await pollTask(client, taskId, undefined, { headers: alice })).status).toBe('completed')
    const unknown = errorOf(
      await client.request('tasks/get', { taskId: 'no-such-task' }, { caps: TASK_CAPS, headers: mallory }),
    )
    for (const [method, extra] of [
      ['tasks/get', {}],
      ['tasks/update', { inputResponses: {} }],
      ['tasks/cancel', {}],
    ] as const) {
      const reply = await client.request(method, { taskId, ...extra }, { caps: TASK_CAPS, headers: mallory })
      expect(errorOf(reply)).toEqual(unknown)
    }
    const anonymous = await client.request('tasks/get', { taskId }, { caps: TASK_CAPS })
    expect(errorOf(anonymous)).toEqual(unknown)
  })

  it('runsACallerWithoutASubjectSynchronously', async () => {
    const { app } = instance(shared())
    const client = fetchClient(app, { auth: bearerJsonAuth })
    const reply = await client.callTool(
      'quick',
      {},
      { caps: TASK_CAPS, headers: bearer({ clientId: 'robot' }) },
    )
    expect(resultOf(reply).resultType).toBe('complete')
  })
})

describe('tasks: across instances', () => {
  it('servesATaskOnAnyInstanceAndCancelsOnTheOneRunningIt', async () => {
    const stores = shared()
    const a = instance(stores)
    const b = instance(stores)
    const taskId = String(resultOf(await fetchClient(a.app).callTool('wait', {}, { caps: TASK_CAPS })).taskId)
    expect((await pollTask(fetchClient(b.app), taskId, ['working'])).taskId).toBe(taskId)
    await fetchClient(b.app).request('tasks/cancel', { taskId }, { caps: TASK_CAPS })
    expect((await pollTask(fetchClient(b.app), taskId)).status).toBe('cancelled')
    expect(a.aborts).toHaveLength(1)
    expect(b.aborts).toHaveLength(0)
  })

  it('endsADeadWorkersTaskWithAnUnknownOutcomeOnceItsLeaseRanOutAndKeepsIt', async () => {
    const stores = shared()
    const { app } = instance(stores)
    const now = Date.now()
    const task = sampleTask({ lease: { fence: 'dead-worker', until: now - 1 }, createdAt: now - 20_000 })
    await stores.tasks.create(task)
    const client = fetchClient(app)
    const ended = await pollTask(client, task.id)
    expect(ended).toMatchObject({ status: 'completed', result: { isError: true, _meta: UNKNOWN_OUTCOME } })
    expect(textOf(ended.result as Record<string, unknown>)).toMatch(/whether the work was done is unknown/)
    expect((await stores.tasks.get(task.id))?.lease).toBeUndefined()
    expect(await pollTask(client, task.id)).toEqual(ended)
  })

  it('stopsTheHandlerOfAWorkerThatLostItsLease', async () => {
    const stores = shared()
    let refuse = false
    const flaky: TaskStore = {
      ...stores.tasks,
      create: (t, limits) => stores.tasks.create(t, limits),
      get: (id) => stores.tasks.get(id),
      replace: (id, v, next) =>
        refuse ? Promise.reject(new Error('store down')) : stores.tasks.replace(id, v, next),
      close: () => stores.tasks.close(),
    }
    const { app, aborts } = instance({ tasks: flaky, bus: stores.bus }, { leaseMs: 90 })
    const taskId = String(resultOf(await fetchClient(app).callTool('wait', {}, { caps: TASK_CAPS })).taskId)
    refuse = true
    await sleep(250)
    expect(aborts).toHaveLength(1)
    expect(aborts[0]).toMatch(/lease lost/)
    refuse = false
    // The stop was not recorded (the store refused it): nobody can say what the handler did.
    expect(await pollTask(fetchClient(app), taskId)).toMatchObject({
      status: 'completed',
      result: { _meta: UNKNOWN_OUTCOME },
    })
  })
})

describe('tasks: a graceful shutdown', () => {
  it('endsTheTasksItRunsFailedSayingTheServerStoppedThem', async () => {
    const stores = shared()
    // The stopping instance closes its own view of the store only: the other still reads it.
    const a = instance({ tasks: { ...stores.tasks, close: async () => {} }, bus: stores.bus })
    const b = instance(stores)
    const taskId = String(resultOf(await fetchClient(a.app).callTool('wait', {}, { caps: TASK_CAPS })).taskId)
    await pollTask(fetchClient(b.app), taskId, ['working'])
    await a.app.close()
    expect(a.aborts).toHaveLength(1)
    expect(await pollTask(fetchClient(b.app), taskId, undefined, { timeoutMs: 200 })).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'The task was stopped: the server is shutting down.' },
    })
  })
})

describe('tasks: a store that cannot take the task', () => {
  it('letsTheCallGoOnSynchronously', async () => {
    const stores = shared()
    const refusing: TaskStore = {
      ...stores.tasks,
      create: async () => 'full',
      get: (id) => stores.tasks.get(id),
      replace: (id, v, n) => stores.tasks.replace(id, v, n),
      close: () => stores.tasks.close(),
    }
    const { app } = instance({ tasks: refusing, bus: stores.bus })
    const result = resultOf(await fetchClient(app).callTool('quick', {}, { caps: TASK_CAPS }))
    expect(result.resultType).toBe('complete')
    expect(textOf(result)).toBe('quick work')
  })
})
