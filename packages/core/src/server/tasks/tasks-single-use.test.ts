/**
 * @module tasks-single-use.test
 * A single-use tool that runs as a task, through the fetch face: the answer that starts the task
 * is consumed once, and every duplicate of it (sent at the same moment, while the work runs, or
 * after it ended) gets the same task back at once; the handler runs once.
 */

import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fetchClient } from '../../../../../test/helpers/fetch-client.ts'
import { capturingLogger, type Json, resultOf, textOf } from '../../../../../test/helpers/mcp-http.ts'
import { pollTask, TASK_CAPS } from '../../../../../test/helpers/tasks.ts'
import { createServer } from '../create-server.ts'
import { elicitForm } from '../mrtr/input-requests.ts'

const confirm = elicitForm({ message: 'Roll back?', schema: z.object({ ok: z.boolean() }) })

function guardedServer(workMs: number) {
  let runs = 0
  const app = createServer({ name: 'tasks-once', version: '1.0.0', logger: capturingLogger() })
  app.tool(
    'rollback',
    {
      description: 'asks, then acts once as a task',
      singleUse: true,
      task: { support: 'optional', start: 'handler' },
    },
    async (_a, ctx) => {
      const answer = await ctx.ask('confirm', confirm)
      if (answer.action !== 'accept' || !answer.content.ok) return 'Nothing was done.'
      await ctx.startTask()
      runs++
      await new Promise((resolve) => setTimeout(resolve, workMs))
      return `rolled back (run ${runs})`
    },
  )
  return { app, runs: () => runs }
}

async function answerRound(app: ReturnType<typeof guardedServer>['app']): Promise<() => Promise<Json>> {
  const client = fetchClient(app)
  const first = resultOf(await client.callTool('rollback', {}, { caps: TASK_CAPS }))
  expect(first.resultType).toBe('input_required')
  const extra = {
    requestState: first.requestState,
    inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
  }
  return async () => resultOf(await client.callTool('rollback', {}, { caps: TASK_CAPS, extra }))
}

describe('tasks: single use', () => {
  it('givesEveryParallelDuplicateOfTheAnswerTheSameTaskAndRunsOnce', async () => {
    const { app, runs } = guardedServer(150)
    const send = await answerRound(app)
    const answers = await Promise.all([send(), send(), send(), send()])
    expect(answers.map((a) => a.resultType)).toEqual(['task', 'task', 'task', 'task'])
    expect(new Set(answers.map((a) => a.taskId)).size).toBe(1)
    const done = await pollTask(fetchClient(app), String(answers[0]!.taskId))
    expect(textOf(done.result as Json)).toBe('rolled back (run 1)')
    expect(runs()).toBe(1)
  })

  it('givesALaterDuplicateTheSameTaskWithItsCurrentStatus', async () => {
    const { app, runs } = guardedServer(20)
    const send = await answerRound(app)
    const first = await send()
    await pollTask(fetchClient(app), String(first.taskId))
    const again = await send()
    expect(again).toMatchObject({ resultType: 'task', taskId: first.taskId, status: 'completed' })
    expect(runs()).toBe(1)
  })
})
