/**
 * @module rollback-task.test
 * The rollback as a task, on a real server: a client that declares the tasks extension gets a
 * task for its accepted answer, watches it roll out (status messages on the way), and reads the
 * result; a duplicate of the answer gets the same task; a cancel before the switch leaves the
 * service as it was; a client without the extension waits for the result as before.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  askRollback,
  type McpClient,
  TASK_CAPABILITIES,
  type Task,
  type ToolResult,
  taskOf,
  textOf,
} from './mcp-client.ts'
import { startOpsServer, type TestServer } from './ops-test-server.ts'

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** Asks for a rollback of `service` and returns the call that answers with its newest earlier version. */
async function answered(client: McpClient, service: string) {
  const asked = await askRollback(client, service)
  const retry = asked.accept()
  return { version: asked.offered[0]!, send: () => client.callTool('rollback', { service }, retry) }
}

async function poll(client: McpClient, taskId: string, until: (task: Task) => boolean): Promise<Task> {
  for (let i = 0; i < 200; i++) {
    const task = (await client.request<Task>('tasks/get', { taskId })).result!
    if (until(task)) return task
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`task ${taskId} never got there`)
}

const ended = (task: Task) => ['completed', 'failed', 'cancelled'].includes(task.status)

describe('rollback as a task', () => {
  it('answersTheAcceptedAnswerWithATaskThatRollsOutAndCompletesOnce', async () => {
    server = await startOpsServer({ rollbackMs: 300 })
    const client = server.clientWith({ capabilities: TASK_CAPABILITIES })
    const before = await server.rollbacks('checkout')
    const { version, send } = await answered(client, 'checkout')
    const created = taskOf(await send())
    expect(created).toMatchObject({ resultType: 'task', status: 'working' })
    const rolling = await poll(client, created.taskId, (t) => t.statusMessage !== undefined || ended(t))
    if (rolling.status === 'working') expect(rolling.statusMessage).toMatch(/checkout \(.+ → /)
    const duplicate = taskOf(await send())
    expect(duplicate.taskId).toBe(created.taskId)
    const done = await poll(client, created.taskId, ended)
    expect(done.status).toBe('completed')
    expect(textOf(done.result)).toMatch(
      new RegExp(`^Rolled checkout back from .+ to ${version.replace(/\./g, '\\.')}`),
    )
    expect(await server.rollbacks('checkout')).toBe(before + 1)
    const later = taskOf(await send())
    expect(later).toMatchObject({ taskId: created.taskId, status: 'completed' })
    expect(await server.rollbacks('checkout')).toBe(before + 1)
  })

  it('leavesTheServiceAsItWasWhenTheTaskIsCancelledBeforeTheSwitch', async () => {
    server = await startOpsServer({ rollbackMs: 3000 })
    const client = server.clientWith({ capabilities: TASK_CAPABILITIES })
    const before = await server.rollbacks('search')
    const { send } = await answered(client, 'search')
    const created = taskOf(await send())
    const ack = await client.request('tasks/cancel', { taskId: created.taskId })
    expect(ack.result).toMatchObject({ resultType: 'complete' })
    expect((await poll(client, created.taskId, ended)).status).toBe('cancelled')
    expect(await server.rollbacks('search')).toBe(before)
  })

  it('makesAClientWithoutTheExtensionWaitForTheResult', async () => {
    server = await startOpsServer({ rollbackMs: 150 })
    const { send } = await answered(server.client, 'inventory')
    const started = Date.now()
    const reply = (await send()).result as ToolResult
    expect(Date.now() - started).toBeGreaterThanOrEqual(140)
    expect(reply.resultType).toBe('complete')
    expect(textOf(reply)).toMatch(/^Rolled inventory back/)
  })
})
