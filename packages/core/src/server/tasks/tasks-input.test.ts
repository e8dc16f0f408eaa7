/**
 * @module tasks-input.test
 * Questions inside a task, through the fetch face: `input_required` with every outstanding
 * question, `tasks/update` with partial answers kept and unknown keys ignored, keys never used
 * twice over a task's life, a declined question ending the call, a question the client cannot
 * answer failing the task, and a handler that asks in ordinary rounds before it becomes a task.
 */

import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fetchClient } from '../../../../../test/helpers/fetch-client.ts'
import {
  ALL_CAPS,
  capturingLogger,
  type Json,
  resultOf,
  textOf,
} from '../../../../../test/helpers/mcp-http.ts'
import { pollTask, TASK_CAPS, TASKS_EXTENSION } from '../../../../../test/helpers/tasks.ts'
import { createServer } from '../create-server.ts'
import type { McpServer } from '../mcp-server.ts'
import { elicitForm } from '../mrtr/input-requests.ts'

const form = (message: string) => elicitForm({ message, schema: z.object({ value: z.string() }) })
const accept = (value: string) => ({ action: 'accept', content: { value } })

function inputServer(): { app: McpServer; runs: string[] } {
  const runs: string[] = []
  const app = createServer({ name: 'tasks-input', version: '1.0.0', logger: capturingLogger(), maxRounds: 4 })
  app.tool('pair', { description: 'two questions at once', task: 'optional' }, async (_a, ctx) => {
    runs.push('pair')
    const { left, right } = await ctx.askAll({ left: form('Left?'), right: form('Right?') })
    if (left.action !== 'accept' || right.action !== 'accept') return 'declined'
    return `${left.content.value}+${right.content.value}`
  })
  app.tool(
    'digits',
    { description: 'asks until the answer is readable', task: 'optional' },
    async (_a, ctx) => {
      const code = elicitForm({ message: 'Code?', schema: z.object({ value: z.string().regex(/^\d+$/) }) })
      const answer = await ctx.ask('code', code)
      return answer.action === 'accept' ? `code ${answer.content.value}` : 'no code'
    },
  )
  app.tool('sample', { description: 'asks the model', task: 'optional' }, async (_a, ctx) => {
    await ctx.ask('llm', { method: 'sampling/createMessage', params: { messages: [], maxTokens: 10 } })
    return 'sampled'
  })
  app.tool(
    'gather_then_work',
    { description: 'asks first, then a task', task: { support: 'required', start: 'handler' } },
    async (_a, ctx) => {
      const who = await ctx.ask('who', form('Who?'))
      if (who.action !== 'accept') return 'Nothing was done.'
      const handle = await ctx.startTask()
      runs.push(`task ${handle?.id ?? 'none'}`)
      const more = await ctx.ask('more', form('Anything else?'))
      return `for ${who.content.value}: ${more.action === 'accept' ? more.content.value : '-'}`
    },
  )
  return { app, runs }
}

async function startTask(app: McpServer, tool: string): Promise<string> {
  const created = resultOf(await fetchClient(app).callTool(tool, {}, { caps: TASK_CAPS }))
  expect(created.resultType).toBe('task')
  return String(created.taskId)
}

async function update(app: McpServer, taskId: string, inputResponses: Json): Promise<Json> {
  return resultOf(
    await fetchClient(app).request('tasks/update', { taskId, inputResponses }, { caps: TASK_CAPS }),
  )
}

describe('tasks: questions inside a task', () => {
  it('waitsWithEveryOutstandingQuestionAndKeepsPartialAnswers', async () => {
    const { app, runs } = inputServer()
    const client = fetchClient(app)
    const taskId = await startTask(app, 'pair')
    const waiting = await pollTask(client, taskId, ['input_required'])
    expect(Object.keys(waiting.inputRequests as Json).sort()).toEqual(['left', 'right'])
    expect((waiting.inputRequests as Record<string, Json>).left?.method).toBe('elicitation/create')
    const ack = await update(app, taskId, { left: accept('L'), unknown: accept('ignored') })
    expect(Object.keys(ack).filter((key) => key !== '_meta')).toEqual(['resultType'])
    const half = await pollTask(client, taskId, ['input_required'])
    expect(Object.keys(half.inputRequests as Json)).toEqual(['right'])
    await update(app, taskId, { right: accept('R') })
    expect(await pollTask(client, taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'L+R' }] },
    })
    // One run that asked, one that finished: answers are not re-asked one by one.
    expect(runs).toEqual(['pair', 'pair'])
  })

  it('ignoresAnUpdateWithOnlyUnknownKeysAndOneForATaskNotWaiting', async () => {
    const { app } = inputServer()
    const client = fetchClient(app)
    const taskId = await startTask(app, 'pair')
    await pollTask(client, taskId, ['input_required'])
    await update(app, taskId, { nothing: accept('x') })
    expect(
      Object.keys((await pollTask(client, taskId, ['input_required'])).inputRequests as Json),
    ).toHaveLength(2)
    await update(app, taskId, { left: accept('a'), right: accept('b') })
    await pollTask(client, taskId)
    expect((await update(app, taskId, { left: accept('late') })).resultType).toBe('complete')
    expect(textOf((await pollTask(client, taskId)).result as Json)).toBe('a+b')
  })

  it('neverUsesAKeyTwiceOverTheTasksLife', async () => {
    const { app } = inputServer()
    const client = fetchClient(app)
    const taskId = await startTask(app, 'digits')
    const seen: string[] = []
    // An unreadable answer is no answer: the question comes again, under a key not used before.
    for (const value of ['abc', 'x1', '42']) {
      const waiting = await pollTask(client, taskId, ['input_required'])
      const [key] = Object.keys(waiting.inputRequests as Json)
      seen.push(String(key))
      await update(app, taskId, { [String(key)]: accept(value) })
    }
    expect(seen).toEqual(['code', 'code.2', 'code.3'])
    expect(textOf((await pollTask(client, taskId)).result as Json)).toBe('code 42')
  })

  it('endsTheCallWhenAQuestionIsDeclined', async () => {
    const { app } = inputServer()
    const client = fetchClient(app)
    const taskId = await startTask(app, 'pair')
    await pollTask(client, taskId, ['input_required'])
    await update(app, taskId, { left: { action: 'decline' }, right: accept('R') })
    expect(textOf((await pollTask(client, taskId)).result as Json)).toBe('declined')
  })

  it('failsATaskThatAsksForWhatTheClientCannotGive', async () => {
    const { app } = inputServer()
    const client = fetchClient(app)
    const caps = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } }
    const created = resultOf(await client.callTool('sample', {}, { caps }))
    expect(await pollTask(client, String(created.taskId))).toMatchObject({
      status: 'failed',
      error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } },
    })
  })

  it('cancelsATaskWaitingForInputAtOnce', async () => {
    const { app } = inputServer()
    const client = fetchClient(app)
    const taskId = await startTask(app, 'pair')
    await pollTask(client, taskId, ['input_required'])
    await client.request('tasks/cancel', { taskId }, { caps: TASK_CAPS })
    const cancelled = await pollTask(client, taskId, ['cancelled'], { timeoutMs: 200 })
    expect(cancelled).not.toHaveProperty('inputRequests')
  })
})

describe('tasks: ordinary rounds before the task', () => {
  it('asksInRoundsThenAnswersTheLastRoundWithATaskThatKeepsTheAnswers', async () => {
    const { app, runs } = inputServer()
    const client = fetchClient(app)
    const first = resultOf(await client.callTool('gather_then_work', {}, { caps: TASK_CAPS }))
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: { who: { method: 'elicitation/create' } },
    })
    expect(first).not.toHaveProperty('taskId')
    const second = resultOf(
      await client.callTool(
        'gather_then_work',
        {},
        {
          caps: TASK_CAPS,
          extra: { requestState: first.requestState, inputResponses: { who: accept('Ada') } },
        },
      ),
    )
    expect(second.resultType).toBe('task')
    expect(second).not.toHaveProperty('requestState')
    const taskId = String(second.taskId)
    // The question after startTask() parks the task; the one before it is not asked again.
    const waiting = await pollTask(client, taskId, ['input_required'])
    expect(Object.keys(waiting.inputRequests as Json)).toEqual(['more'])
    await update(app, taskId, { more: accept('coffee') })
    expect(textOf((await pollTask(client, taskId)).result as Json)).toBe('for Ada: coffee')
    expect(runs).toEqual([`task ${taskId}`, `task ${taskId}`])
  })

  it('staysSynchronousForAClientWithoutTheExtensionWhereTheToolAllowsIt', async () => {
    const app = createServer({ name: 'sync-start', version: '1', logger: capturingLogger() })
    app.tool(
      'maybe',
      { description: 'optional', task: { support: 'optional', start: 'handler' } },
      async (_a, ctx) => {
        const handle = await ctx.startTask()
        return handle === undefined ? 'synchronous' : 'task'
      },
    )
    expect(textOf(resultOf(await fetchClient(app).callTool('maybe', {}, { caps: ALL_CAPS })))).toBe(
      'synchronous',
    )
  })
})
