/**
 * @module handshake-session-record.test
 * What a 2025-11-25 session keeps of its `initialize`, over real HTTP: the client's capability
 * declarations and its identity fields, not what the client padded them with, so a session
 * record stays small whatever the client sends; the session still elicits as declared.
 */
import { createServer, elicitForm } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { memorySessionStore } from '@tessera/core/ports'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { acceptWith, HandshakeClient, resultOf, textOf } from '../helpers/handshake-client.ts'
import { capturingLogger } from '../helpers/mcp-http.ts'

const sessions = memorySessionStore()
let running: RunningServer
const PADDING = 'x'.repeat(300_000)

beforeAll(async () => {
  const app = createServer({
    name: 'it-session-record',
    version: '1.0.0',
    logger: capturingLogger(),
    stores: { sessions },
  })
  app.tool('confirm', { description: 'asks first' }, async (_a, ctx) => {
    const answer = await ctx.ask('ok', elicitForm({ message: 'OK?', schema: z.object({ ok: z.boolean() }) }))
    return answer.action === 'accept' && answer.content.ok ? 'confirmed' : 'not confirmed'
  })
  running = await listen(app, { host: '127.0.0.1', port: 0, maxBodyBytes: 2_000_000 })
})

afterAll(() => running.close())

describe('a handshake session record', () => {
  it('keepsTheDeclarationsAndIdentityOfAPaddedInitializeNotThePadding', async () => {
    const capabilities = {
      elicitation: { padding: PADDING },
      roots: { listChanged: true, padding: PADDING },
      padding: PADDING,
    }
    const client = new HandshakeClient(running.url, { capabilities })
    const reply = await client.initialize({ clientInfo: { name: 'padder', version: '1', padding: PADDING } })
    expect(reply.status).toBe(200)
    const record = await sessions.get(client.sessionId!)
    expect(record?.clientCapabilities).toEqual({ elicitation: {}, roots: { listChanged: true } })
    expect(record?.clientInfo).toEqual({ name: 'padder', version: '1' })
    expect(JSON.stringify(record).length).toBeLessThan(1024)
    await client.notify('notifications/initialized')
    const called = await client.request(
      'tools/call',
      { name: 'confirm', arguments: {} },
      { onRequest: acceptWith({ ok: true }) },
    )
    expect(textOf(resultOf(called))).toBe('confirmed')
  })
})
