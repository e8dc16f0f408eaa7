/**
 * @module tasks-notifications.test
 * `notifications/tasks` on a listen stream that follows tasks, through the fetch face: the
 * acknowledgement lists only the caller's own live tasks, every visible change arrives with the
 * whole detailed task, a lease renewal is no change, and a task too large to travel on the bus is
 * read from the store by the instance that delivers it.
 */
import { describe, expect, it } from 'vitest'
import { fetchClient } from '../../../../../test/helpers/fetch-client.ts'
import { capturingLogger, paramsOf, resultOf, SseReader } from '../../../../../test/helpers/mcp-http.ts'
import { TASK_CAPS } from '../../../../../test/helpers/tasks.ts'
import { createServer } from '../create-server.ts'
import { memoryNotificationBus, type ServerEvent } from '../notification-bus.ts'

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function server() {
  const bus = memoryNotificationBus()
  const app = createServer({
    name: 'tasks-notify',
    version: '1.0.0',
    logger: capturingLogger(),
    stores: { bus },
    tasks: { leaseMs: 60 },
  })
  // Each waits before it changes anything, so the listen stream is open by then.
  app.tool('steps', { description: 'two steps', task: 'optional' }, async (_a, ctx) => {
    await pause(80)
    ctx.task?.status('second step')
    await pause(150)
    return 'two steps done'
  })
  app.tool('big', { description: 'a large result', task: 'optional' }, async () => {
    await pause(80)
    return 'x'.repeat(20_000)
  })
  return { app, bus }
}

async function follow(app: ReturnType<typeof server>['app'], taskIds: string[]): Promise<SseReader> {
  const response = await fetchClient(app).open(
    'subscriptions/listen',
    { notifications: { taskIds } },
    { caps: TASK_CAPS, id: 'follow' },
  )
  return new SseReader(response)
}

async function untilEnded(stream: SseReader): Promise<Record<string, unknown>[]> {
  const seen: Record<string, unknown>[] = []
  while (!['completed', 'failed', 'cancelled'].includes(String(seen.at(-1)?.status))) {
    const message = await stream.next(3000)
    expect(message?.method).toBe('notifications/tasks')
    seen.push(paramsOf(message))
  }
  return seen
}

describe('tasks: notifications', () => {
  it('sendsEachVisibleChangeWithTheWholeTaskButNoLeaseRenewal', async () => {
    const { app } = server()
    const taskId = String(resultOf(await fetchClient(app).callTool('steps', {}, { caps: TASK_CAPS })).taskId)
    const stream = await follow(app, [taskId, 'not-a-task'])
    expect(paramsOf(await stream.next()).notifications).toEqual({ taskIds: [taskId] })
    // 230 ms of work under a 60 ms lease: several renewals, none of them a notification.
    const seen = await untilEnded(stream)
    expect(seen.map((task) => [task.status, task.statusMessage])).toEqual([
      ['working', 'second step'],
      ['completed', 'second step'],
    ])
    for (const task of seen) {
      expect(task.taskId).toBe(taskId)
      expect((task._meta as Record<string, unknown>)['io.modelcontextprotocol/subscriptionId']).toBe('follow')
    }
    expect(seen.at(-1)?.result).toMatchObject({ content: [{ type: 'text', text: 'two steps done' }] })
    await stream.cancel()
  })

  it('readsATaskTooLargeForTheBusFromTheStore', async () => {
    const { app, bus } = server()
    const events: ServerEvent[] = []
    bus.subscribe((event) => events.push(event))
    const first = resultOf(await fetchClient(app).callTool('steps', {}, { caps: TASK_CAPS }))
    const stream = await follow(app, [String(first.taskId)])
    await stream.next()
    await untilEnded(stream)
    await stream.cancel()
    const bigId = String(resultOf(await fetchClient(app).callTool('big', {}, { caps: TASK_CAPS })).taskId)
    const big = await follow(app, [bigId])
    await big.next()
    const last = (await untilEnded(big)).at(-1)
    expect(JSON.stringify(last?.result)).toContain('x'.repeat(20_000))
    const carried = events.filter(
      (e) => e.type === 'task-changed' && e.taskId === bigId && e.task?.status === 'completed',
    )
    expect(carried).toEqual([])
    await big.cancel()
  })
})
