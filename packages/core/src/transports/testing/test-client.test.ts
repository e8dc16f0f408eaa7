/**
 * @module test-client.test
 * The in-process test client, in both eras: a call answers with its result, the server's
 * questions are answered by key from the test (in the handshake era too, where they travel as
 * real requests), a question the test did not answer fails the call saying which, a JSON-RPC
 * error rejects with its code, and a scoped tool answers only a caller given its scopes. The
 * client writes nothing to the server's log, so a test's output shows no warning about what a
 * serving process would keep in memory.
 */
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { silentLogger } from '../../../../../test/helpers/silent-logger.ts'
import { defaultLogger } from '../../observation/pino-logger.ts'
import { createServer } from '../../server/create-server.ts'
import { elicitForm, listRoots } from '../../server/mrtr/input-requests.ts'
import { createTestClient, TestCallError } from './test-client.ts'

function app() {
  const server = createServer({ name: 'testing', version: '1.0.0', logger: silentLogger })
  server.tool(
    'rollback',
    {
      description: 'Asks before acting',
      input: z.object({ service: z.string() }),
      output: z.object({ service: z.string(), rolledBack: z.boolean() }),
    },
    async ({ service }, ctx) => {
      ctx.progress(1, 2)
      const answer = await ctx.ask(
        'confirm',
        elicitForm({ message: `Roll ${service} back?`, schema: z.object({ ok: z.boolean() }) }),
      )
      const rolledBack = answer.action === 'accept' && answer.content.ok
      return {
        content: [{ type: 'text', text: rolledBack ? 'done' : 'nothing' }],
        structuredContent: { service, rolledBack },
      }
    },
  )
  server.tool('roots', { description: 'Counts roots' }, async (_a, ctx) => {
    const { roots } = await ctx.ask('roots', listRoots())
    return `${roots.length} roots`
  })
  server.tool('whoami', { description: 'Names the caller' }, (_a, ctx) => ctx.auth?.subject ?? 'anonymous')
  server.tool('status', { description: 'Needs a scope', scopes: ['ops:read'] }, () => 'all green')
  server.resource('config://a', { name: 'a' }, (uri) => ({ contents: [{ uri, text: 'A' }] }))
  server.prompt('greet', { description: 'Greets', args: z.object({ name: z.string() }) }, ({ name }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Hello ${name}` } }],
  }))
  return server
}

describe.each(['modern', 'handshake'] as const)('createTestClient (%s era)', (era) => {
  it('answersTheServersQuestionsByKeyAndReturnsTheResult', async () => {
    const client = createTestClient(app(), { era })
    const progress: unknown[] = []
    const result = await client.callTool<{ rolledBack: boolean }>(
      'rollback',
      { service: 'api' },
      {
        answer: { confirm: { action: 'accept', content: { ok: true } } },
        onNotification: (n) => progress.push(n.method),
      },
    )
    expect(result.structuredContent).toEqual({ service: 'api', rolledBack: true })
    expect(progress).toContain('notifications/progress')
    await client.close()
  })

  it('answersWithAFunctionOfTheQuestion', async () => {
    const client = createTestClient(app(), { era })
    const result = await client.callTool(
      'roots',
      {},
      {
        answer: ({ key, method }) =>
          key === 'roots' && method === 'roots/list' ? { roots: [{ uri: 'file:///a' }] } : undefined,
      },
    )
    expect(result.content).toEqual([{ type: 'text', text: '1 roots' }])
  })

  it('failsACallWhoseQuestionTheTestDidNotAnswer', async () => {
    const client = createTestClient(app(), { era })
    await expect(client.callTool('rollback', { service: 'api' })).rejects.toThrow(
      "The server asked 'confirm' (elicitation/create) and the test gave no answer for it.",
    )
  })

  it('rejectsWithTheJsonRpcError', async () => {
    const client = createTestClient(app(), { era })
    const error = await client.callTool('no-such-tool').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TestCallError)
    expect(error).toMatchObject({ code: -32602, message: "Invalid params: unknown tool 'no-such-tool'." })
  })

  it('readsResourcesAndGetsPrompts', async () => {
    const client = createTestClient(app(), { era })
    expect((await client.readResource('config://a')).contents).toEqual([{ uri: 'config://a', text: 'A' }])
    expect((await client.getPrompt('greet', { name: 'Ada' })).messages[0]?.content).toEqual({
      type: 'text',
      text: 'Hello Ada',
    })
  })

  it('callsAsThePrincipalItWasGiven', async () => {
    const client = createTestClient(app(), { era, auth: { subject: 'ada', issuer: 'https://idp.example' } })
    expect((await client.callTool('whoami')).content).toEqual([{ type: 'text', text: 'ada' }])
  })

  it('opensAScopedToolToACallerHoldingItsScopesOnly', async () => {
    const held = createTestClient(app(), { era, auth: { subject: 'ada', scopes: ['ops:read'] } })
    expect((await held.callTool('status')).content).toEqual([{ type: 'text', text: 'all green' }])
    for (const auth of [undefined, { subject: 'bob', scopes: ['ops:write'] }]) {
      const refused = createTestClient(app(), { era, auth })
      const error = await refused.callTool('status').catch((e: unknown) => e)
      expect(error).toBeInstanceOf(TestCallError)
      expect(error).toMatchObject({ data: { requiredScopes: ['ops:read'] } })
      await refused.close()
    }
    await held.close()
  })
})

describe('createTestClient', () => {
  it('writesNothingToTheDefaultLogOfAServerWithoutKeysOrStores', async () => {
    vi.stubEnv('TESSERA_LOG_LEVEL', undefined)
    const written: string[] = []
    const logger = defaultLogger({ write: (line: string) => void written.push(line) })
    const server = createServer({ name: 'quiet', version: '1.0.0', logger })
    server.tool('once', { description: 'Acts once', singleUse: true }, async (_a, ctx) => {
      const answer = await ctx.ask(
        'ok',
        elicitForm({ message: 'Go?', schema: z.object({ ok: z.boolean() }) }),
      )
      return answer.action
    })
    const answer = { ok: { action: 'accept', content: { ok: true } } }
    try {
      for (const era of ['modern', 'handshake'] as const) {
        const client = createTestClient(server, { era })
        const result = await client.callTool('once', {}, { answer })
        expect(result.content).toEqual([{ type: 'text', text: 'accept' }])
        await client.close()
      }
      expect(written).toEqual([])
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('refusesTheHandshakeEraOfAServerThatServes2026Only', () => {
    const server = createServer({ name: 'x', version: '1', logger: silentLogger, handshake: false })
    expect(() => createTestClient(server, { era: 'handshake' })).toThrow('This server serves 2026-07-28 only')
  })
})
