/**
 * @module tasks-lifecycle.test
 * A task from the call to its end, through the fetch face: negotiation per request, the shapes
 * of `CreateTaskResult` and the detailed task, status messages and progress, tool errors and
 * protocol errors, cancellation (its signal fires, and a terminal task stays as it is), expiry
 * after `ttlMs`.
 */

import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fetchClient } from '../../../../../test/helpers/fetch-client.ts'
import { capturingLogger, errorOf, resultOf, textOf } from '../../../../../test/helpers/mcp-http.ts'
import { pollTask, TASK_CAPS, TASKS_EXTENSION } from '../../../../../test/helpers/tasks.ts'
import { sleep } from '../../../../../test/helpers/timing.ts'
import { TesseraError } from '../../errors.ts'
import { createServer } from '../create-server.ts'
import type { McpServer } from '../mcp-server.ts'
import { ToolError } from '../tool-error.ts'

function abortable(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      reject(signal.reason)
    })
  })
}

function taskServer(): { app: McpServer; aborted: string[] } {
  const aborted: string[] = []
  const app = createServer({ name: 'tasks', version: '1.0.0', logger: capturingLogger() })
  app.tool(
    'greet',
    { description: 'sync', input: z.object({ name: z.string() }) },
    ({ name }) => `Hello, ${name}!`,
  )
  app.tool(
    'work',
    { description: 'long work', input: z.object({ ms: z.number() }), task: 'optional' },
    async ({ ms }, ctx) => {
      ctx.signal.addEventListener('abort', () => aborted.push(String(ctx.task?.id)))
      ctx.task?.status('starting')
      ctx.task?.progress(1, 2, 'half way')
      await abortable(ms, ctx.signal)
      return { content: [{ type: 'text', text: `worked ${ms} ms` }], structuredContent: { ms } }
    },
  )
  app.tool('only_task', { description: 'required', task: 'required' }, async () => 'done as a task')
  app.tool('tool_error', { description: 'tool error', task: 'optional' }, async () => {
    throw new ToolError('the input was wrong')
  })
  app.tool('protocol_error', { description: 'protocol error', task: 'optional' }, async () => {
    throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: no such job.')
  })
  app.tool(
    'short_lived',
    { description: 'kept briefly', task: { support: 'optional', ttlMs: 300, pollIntervalMs: 50 } },
    async () => 'done',
  )
  return { app, aborted }
}

describe('tasks: negotiation', () => {
  it('advertisesTheExtensionInDiscover', async () => {
    const result = resultOf(await fetchClient(taskServer().app).request('server/discover'))
    expect((result.capabilities as { extensions?: unknown }).extensions).toEqual({ [TASKS_EXTENSION]: {} })
    expect(result.capabilities).not.toHaveProperty('tasks')
  })

  it('answersADeclaringClientWithATaskAndAnyOtherSynchronously', async () => {
    const client = fetchClient(taskServer().app)
    const sync = resultOf(await client.callTool('work', { ms: 1 }))
    expect(sync.resultType).toBe('complete')
    expect(textOf(sync)).toBe('worked 1 ms')
    const created = resultOf(await client.callTool('work', { ms: 1 }, { caps: TASK_CAPS }))
    expect(created).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: 3_600_000,
      pollIntervalMs: 1000,
    })
    expect(String(created.taskId).length).toBeGreaterThanOrEqual(32)
    expect(Date.parse(String(created.createdAt))).toBeGreaterThan(0)
    for (const key of ['result', 'error', 'inputRequests', 'requestState', 'task', 'content']) {
      expect(created).not.toHaveProperty(key)
    }
  })

  it('neverMakesATaskOfAToolThatDoesNotRunAsOne', async () => {
    const reply = await fetchClient(taskServer().app).callTool(
      'greet',
      { name: 'Ada' },
      {
        caps: TASK_CAPS,
        extra: { task: { ttl: 1000 } },
      },
    )
    expect(resultOf(reply)).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Hello, Ada!' }],
    })
  })

  it('refusesARequiredTaskToAClientWithoutTheExtension', async () => {
    const reply = await fetchClient(taskServer().app).callTool('only_task')
    expect(reply.status).toBe(400)
    expect(errorOf(reply)).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    })
  })

  it('refusesEveryTasksMethodWithoutTheExtensionBeforeLookingAtTheId', async () => {
    const client = fetchClient(taskServer().app)
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const reply = await client.request(method, { taskId: 'whatever', inputResponses: {} })
      expect(errorOf(reply).code).toBe(-32021)
    }
    expect(errorOf(await client.request('tasks/result', { taskId: 'x' }, { caps: TASK_CAPS })).code).toBe(
      -32601,
    )
  })

  it('hasNoTasksMethodsOnAServerWithoutTaskTools', async () => {
    const app = createServer({ name: 'plain', version: '1', logger: capturingLogger() })
    app.tool('t', { description: 't' }, () => 'x')
    const reply = await fetchClient(app).request('tasks/get', { taskId: 'x' }, { caps: TASK_CAPS })
    expect(errorOf(reply).code).toBe(-32601)
    const discover = resultOf(await fetchClient(app).request('server/discover'))
    expect(discover.capabilities).not.toHaveProperty('extensions')
  })
})

describe('tasks: from the call to the end', () => {
  it('inlinesTheResultOnceCompletedWithStatusAndProgressOnTheWay', async () => {
    const client = fetchClient(taskServer().app)
    const created = resultOf(await client.callTool('work', { ms: 150 }, { caps: TASK_CAPS }))
    const taskId = String(created.taskId)
    const working = await pollTask(client, taskId, ['working'])
    expect(working.resultType).toBe('complete')
    await sleep(40)
    const midway = await pollTask(client, taskId, ['working', 'completed'])
    if (midway.status === 'working') {
      expect(midway.statusMessage).toBe('half way')
      expect(midway._meta).toMatchObject({ 'dev.tessera/progress': { progress: 1, total: 2 } })
    }
    const done = await pollTask(client, taskId)
    expect(done).toMatchObject({
      taskId,
      status: 'completed',
      result: { content: [{ type: 'text', text: 'worked 150 ms' }], structuredContent: { ms: 150 } },
    })
    expect(done).not.toHaveProperty('requestState')
    expect((done.result as { _meta?: unknown })._meta).toBeUndefined()
  })

  it('reportsAToolErrorAsCompletedWithIsErrorAndAProtocolErrorAsFailed', async () => {
    const client = fetchClient(taskServer().app)
    const toolError = resultOf(await client.callTool('tool_error', {}, { caps: TASK_CAPS }))
    expect(await pollTask(client, String(toolError.taskId))).toMatchObject({
      status: 'completed',
      result: { isError: true, content: [{ type: 'text', text: 'the input was wrong' }] },
    })
    const protocolError = resultOf(await client.callTool('protocol_error', {}, { caps: TASK_CAPS }))
    const failed = await pollTask(client, String(protocolError.taskId))
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32602, message: 'Invalid params: no such job.' },
    })
    expect(failed).not.toHaveProperty('result')
  })

  it('cancelsARunningTaskThroughItsSignalAndAcknowledgesEmpty', async () => {
    const { app, aborted } = taskServer()
    const client = fetchClient(app)
    const taskId = String(resultOf(await client.callTool('work', { ms: 60_000 }, { caps: TASK_CAPS })).taskId)
    const ack = resultOf(await client.request('tasks/cancel', { taskId }, { caps: TASK_CAPS }))
    expect(Object.keys(ack).filter((key) => key !== '_meta')).toEqual(['resultType'])
    expect(await pollTask(client, taskId)).toMatchObject({ status: 'cancelled' })
    expect(aborted).toEqual([taskId])
  })

  it('acknowledgesACancelOfATerminalTaskAndLeavesItAsItIs', async () => {
    const client = fetchClient(taskServer().app)
    const taskId = String(resultOf(await client.callTool('work', { ms: 1 }, { caps: TASK_CAPS })).taskId)
    await pollTask(client, taskId)
    expect(resultOf(await client.request('tasks/cancel', { taskId }, { caps: TASK_CAPS })).resultType).toBe(
      'complete',
    )
    expect((await pollTask(client, taskId)).status).toBe('completed')
  })

  it('keepsATaskForItsTtlAndForgetsItAfter', async () => {
    const client = fetchClient(taskServer().app)
    const created = resultOf(await client.callTool('short_lived', {}, { caps: TASK_CAPS }))
    expect(created).toMatchObject({ ttlMs: 300, pollIntervalMs: 50 })
    const taskId = String(created.taskId)
    await pollTask(client, taskId)
    await sleep(150)
    expect((await pollTask(client, taskId)).status).toBe('completed')
    await sleep(400)
    const gone = await client.request('tasks/get', { taskId }, { caps: TASK_CAPS })
    expect(errorOf(gone)).toEqual({ code: -32602, message: 'Invalid params: unknown task.' })
  })

  it('checksMcpNameAgainstTheTaskId', async () => {
    const client = fetchClient(taskServer().app)
    const taskId = String(resultOf(await client.callTool('work', { ms: 1 }, { caps: TASK_CAPS })).taskId)
    const reply = await client.request(
      'tasks/get',
      { taskId },
      { caps: TASK_CAPS, headers: { 'mcp-name': 'other' } },
    )
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32020)
  })
})
