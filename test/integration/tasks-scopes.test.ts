/**
 * @module tasks-scopes.test
 * Every method that touches a task demands the scopes of the tool the task runs, over real HTTP:
 * a second token of the task's own principal that lacks a scope neither reads, answers, cancels
 * nor follows it, and gets the call's 403 with its step-up challenge; the task stays as it was.
 * With every scope the answer resumes the handler, which sees the token that answered.
 */
import { type AuthInfo, createServer, elicitForm } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  bearer,
  bearerJsonAuth,
  capturingLogger,
  errorOf,
  McpHttpClient,
  type Reply,
  resultOf,
  textOf,
} from '../helpers/mcp-http.ts'
import { pollTask, TASK_CAPS } from '../helpers/tasks.ts'

const ISSUER = 'https://id.example'
const token = (scopes: string[]): Record<string, string> =>
  bearer({ subject: 'ops', issuer: ISSUER, scopes } as AuthInfo)
const STRONG = token(['build', 'admin'])
const WEAK = token(['build'])
const NONE = token([])

let running: RunningServer
let client: McpHttpClient

beforeAll(async () => {
  const app = createServer({ name: 'it-task-scopes', version: '1.0.0', logger: capturingLogger() })
  app.tool(
    'purge',
    { description: 'asks inside its task', scopes: ['admin'], task: 'required' },
    async (_args, ctx) => {
      const answer = await ctx.ask('sure', elicitForm({ message: 'Purge?', schema: z.object({}) }))
      if (answer.action !== 'accept') return 'not purged'
      return `purged as ${(ctx.auth?.scopes ?? []).join(' ')}`
    },
  )
  running = await listen(app, {
    host: '127.0.0.1',
    port: 0,
    auth: {
      ...bearerJsonAuth,
      insufficientScope: (scopes) => `Bearer error="insufficient_scope", scope="${scopes.join(' ')}"`,
    },
  })
  client = new McpHttpClient(running.url)
})

afterAll(() => running.close())

async function parkedTask(): Promise<string> {
  const created = resultOf(await client.callTool('purge', {}, { caps: TASK_CAPS, headers: STRONG }))
  const taskId = String(created.taskId)
  await pollTask(client, taskId, ['input_required'], { headers: STRONG })
  return taskId
}

const ACCEPT = { sure: { action: 'accept', content: {} } }

function expectRefusedForScope(reply: Reply): void {
  expect(reply.status).toBe(403)
  expect(errorOf(reply)).toMatchObject({ code: -32600, data: { requiredScopes: ['admin'] } })
  expect(reply.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="admin"')
}

describe('tasks demand the scopes of their tool', () => {
  it('refusesEveryTaskMethodToATokenOfTheOwnerThatLacksTheToolsScope', async () => {
    const taskId = await parkedTask()
    for (const headers of [WEAK, NONE]) {
      const caps = TASK_CAPS
      expectRefusedForScope(await client.request('tasks/get', { taskId }, { caps, headers }))
      expectRefusedForScope(
        await client.request('tasks/update', { taskId, inputResponses: ACCEPT }, { caps, headers }),
      )
      expectRefusedForScope(await client.request('tasks/cancel', { taskId }, { caps, headers }))
    }
    const listened = await client.request(
      'subscriptions/listen',
      { notifications: { taskIds: [taskId] } },
      { caps: TASK_CAPS, headers: NONE },
    )
    expectRefusedForScope(listened)
    expect((await pollTask(client, taskId, ['input_required'], { headers: STRONG })).status).toBe(
      'input_required',
    )
  })

  it('resumesTheHandlerUnderTheTokenThatAnswered', async () => {
    const taskId = await parkedTask()
    const answering = token(['admin', 'build', 'audit'])
    const updated = await client.request(
      'tasks/update',
      { taskId, inputResponses: ACCEPT },
      { caps: TASK_CAPS, headers: answering },
    )
    expect(updated.status).toBe(200)
    const done = await pollTask(client, taskId, undefined, { headers: STRONG })
    expect(textOf(done.result as Record<string, unknown>)).toBe('purged as admin build audit')
  })

  it('stillLetsAnotherPrincipalSeeOnlyAnUnknownTask', async () => {
    const taskId = await parkedTask()
    const stranger = bearer({ subject: 'mallory', issuer: ISSUER, scopes: ['admin'] } as AuthInfo)
    const reply = await client.request('tasks/get', { taskId }, { caps: TASK_CAPS, headers: stranger })
    expect(errorOf(reply)).toMatchObject({ code: -32602, message: 'Invalid params: unknown task.' })
  })
})
