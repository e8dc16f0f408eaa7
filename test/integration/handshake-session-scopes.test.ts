/**
 * @module handshake-session-scopes.test
 * A 2025-11-25 session is bound to its principal, not to one token, so what touches a request of
 * the session demands the scopes of what that request calls, over real HTTP: the answer to the
 * server's question from a token of the same principal that lacks the tool's scope is not taken
 * (the question waits for one that may answer it), and its `notifications/cancelled` stops nothing.
 */
import { type AuthInfo, createServer, elicitForm } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { HandshakeClient, resultOf, textOf } from '../helpers/handshake-client.ts'
import { bearer, bearerJsonAuth, capturingLogger, type Json } from '../helpers/mcp-http.ts'

const as = (scopes: string[]) => bearer({ subject: 'ops', issuer: 'https://id.example', scopes } as AuthInfo)
const ADMIN = as(['admin'])
const WEAK = as([])

let running: RunningServer
let release: () => void = () => {}
/** The `hold` calls that were stopped by a cancel, by the id the test gave each. */
const stopped: string[] = []

beforeAll(async () => {
  const app = createServer({ name: 'it-session-scopes', version: '1.0.0', logger: capturingLogger() })
  app.tool('name-it', { description: 'asks for a name', scopes: ['admin'] }, async (_a, ctx) => {
    const answer = await ctx.ask(
      'who',
      elicitForm({ message: 'Name?', schema: z.object({ name: z.string() }) }),
    )
    return answer.action === 'accept' ? `named ${answer.content.name}` : 'not named'
  })
  app.tool(
    'hold',
    { description: 'waits until released or cancelled', scopes: ['admin'] },
    async (_a, ctx) => {
      await new Promise<void>((resolve, reject) => {
        release = resolve
        ctx.signal.addEventListener('abort', () => {
          stopped.push(String(ctx.request.id))
          reject(new Error('cancelled'))
        })
      })
      return 'held to the end'
    },
  )
  running = await listen(app, { host: '127.0.0.1', port: 0, auth: bearerJsonAuth })
})

afterAll(() => running.close())

describe('requests of a handshake session answer to the scopes of what they call', () => {
  it('takesTheAnswerOfATokenWithTheToolsScopeAndNotTheWeakerOnesBeforeIt', async () => {
    const session = await HandshakeClient.connect(running.url, { headers: ADMIN })
    const weakAnswers: number[] = []
    const reply = await session.callTool(
      'name-it',
      {},
      {
        async onRequest(request: Json) {
          const weak = await session.post(
            { jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { name: 'Weak' } } },
            WEAK,
          )
          weakAnswers.push(weak.status)
          return { result: { action: 'accept', content: { name: 'Admin' } } }
        },
      },
    )
    expect(weakAnswers).toEqual([202])
    expect(textOf(resultOf(reply))).toBe('named Admin')
  })

  it('stopsNothingForACancelFromATokenWithoutTheToolsScope', async () => {
    const session = await HandshakeClient.connect(running.url, { headers: ADMIN })
    const called = session.callTool('hold', {}, { id: 'held' })
    await new Promise((resolve) => setTimeout(resolve, 100))
    const cancel = { requestId: 'held', reason: 'weaker token' }
    expect((await session.notify('notifications/cancelled', cancel, WEAK)).status).toBe(202)
    await new Promise((resolve) => setTimeout(resolve, 50))
    release()
    expect(textOf(resultOf(await called))).toBe('held to the end')
    expect(stopped).not.toContain('held')
  })

  it('stopsTheRequestForACancelFromATokenWithTheToolsScope', async () => {
    const session = await HandshakeClient.connect(running.url, { headers: ADMIN })
    const called = session.callTool('hold', {}, { id: 'stopped', timeoutMs: 1_000 })
    await new Promise((resolve) => setTimeout(resolve, 100))
    await session.notify('notifications/cancelled', { requestId: 'stopped' })
    await called.catch(() => undefined)
    expect(stopped).toContain('stopped')
    release()
  })
})
