/**
 * @module handshake-two-instances.test
 * Two server instances (two `createServer` + `listen` in this process) behind the same Redis
 * session and event stores and the same requestState keys, as behind a load balancer without
 * sticky routing: a session opened on A is served by B, a stream cut on A is resumed on B without
 * losing an event, DELETE on B ends the session for A. Needs TESSERA_TEST_REDIS_URL (skipped
 * with the reason printed otherwise); keys live under a prefix unique to this run and are deleted.
 */
import { randomBytes } from 'node:crypto'
import { createServer, elicitForm, type McpServer } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { memoryNotificationBus, type NotificationBus, parseEventId } from '@tessera/core/ports'
import { generateStateKey } from '@tessera/core/request-state'
import { redisEventStore, redisNotificationBus, redisSessionStore } from '@tessera/store-redis'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  EventReader,
  HandshakeClient,
  type Json,
  resultOf,
  type SseEvent,
  sleep,
  textOf,
} from '../helpers/handshake-client.ts'
import { capturingLogger, McpHttpClient } from '../helpers/mcp-http.ts'

const url = process.env['TESSERA_TEST_REDIS_URL']
if (!url) process.stderr.write('handshake-two-instances tests skipped: TESSERA_TEST_REDIS_URL is not set\n')
const prefix = `tessera-test:${randomBytes(6).toString('hex')}:`
const keys = [generateStateKey('shared')]

const okForm = { type: 'object' as const, properties: { ok: { type: 'boolean' } }, required: ['ok'] }

function build(name: string, bus?: NotificationBus): McpServer {
  const app = createServer({
    name: 'it-cluster',
    version: '1.0.0',
    logger: capturingLogger(),
    requestState: { keys },
    stores: {
      sessions: redisSessionStore({ url: url!, keyPrefix: `${prefix}session:` }),
      events: redisEventStore({ url: url!, keyPrefix: `${prefix}events:` }),
      bus,
    },
  })
  app.resource('config://shared', { name: 'shared' }, (uri) => ({ contents: [{ uri, text: name }] }))
  app.tool('whoami', { description: 'Names the instance' }, () => `served by ${name}`)
  app.tool(
    'echo',
    { description: 'Echo', input: z.object({ text: z.string() }) },
    ({ text }) => `${name}: ${text}`,
  )
  app.tool(
    'detach',
    { description: 'Cuts the connection, then reports progress for ~300 ms' },
    async (_args, ctx) => {
      ctx.progress(1, 8)
      ctx.closeStream()
      for (let step = 2; step <= 8; step++) {
        await sleep(40)
        ctx.progress(step, 8, `step ${step} on ${name}`)
      }
      return `detached work done on ${name}`
    },
  )
  app.tool('ask', { description: 'One elicitation' }, async (_args, ctx) => {
    const answer = await ctx.ask('proceed', elicitForm({ message: 'Proceed?', requestedSchema: okForm }))
    return answer.action === 'accept' ? `ok=${answer.content.ok}` : `refused (${answer.action})`
  })
  app.tool('confirm-delete', { description: 'Asks before deleting everything' }, async (_args, ctx) => {
    const answer = await ctx.ask(
      'delete',
      elicitForm({ message: 'Delete every record?', requestedSchema: okForm }),
    )
    return answer.action === 'accept' && answer.content.ok === true ? 'deleted everything' : 'kept everything'
  })
  return app
}

describe.skipIf(!url)('two instances sharing Redis stores', () => {
  let a: RunningServer
  let b: RunningServer

  beforeAll(async () => {
    a = await listen(build('A'), { port: 0 })
    b = await listen(build('B'), { port: 0 })
  })

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()])
    const admin = new Redis(url!)
    const found = await admin.keys(`${prefix}*`)
    if (found.length > 0) await admin.del(...found)
    await admin.quit()
  })

  it('servesOnBASessionOpenedOnAForToolsListAndToolsCall', async () => {
    const onA = await HandshakeClient.connect(a.url)
    const onB = onA.at(b.url)
    const list = resultOf(await onB.request('tools/list'))
    expect((list.tools as Json[]).map((t) => t.name)).toContain('whoami')
    expect(textOf(resultOf(await onB.callTool('whoami')))).toBe('served by B')
    expect(textOf(resultOf(await onB.callTool('echo', { text: 'hi' })))).toBe('B: hi')
    expect(textOf(resultOf(await onA.callTool('whoami')))).toBe('served by A')
    // Session state written on one instance is read on the other.
    expect(resultOf(await onB.request('logging/setLevel', { level: 'error' }))).toStrictEqual({})
    expect(resultOf(await onA.request('ping'))).toStrictEqual({})
  })

  it('resumesOnBAStreamCutOnAMissingNoEvent', async () => {
    const onA = await HandshakeClient.connect(a.url)
    const response = await onA.open(
      'tools/call',
      { name: 'detach', arguments: {}, _meta: { progressToken: 'x' } },
      { id: 'cut' },
    )
    const reader = new EventReader(response)
    const before: SseEvent[] = []
    for (;;) {
      const event = await reader.next()
      if (event === undefined) break
      before.push(event)
    }
    expect(before.map((e) => (e.message?.params as Json | undefined)?.progress)).toEqual([undefined, 1])
    const lastEventId = before.at(-1)!.id!
    const stream = parseEventId(lastEventId)!.streamId

    // Reconnect on the other instance while A is still working.
    const after = await onA.at(b.url).resume(lastEventId, { expectId: 'cut' })
    expect(after.status).toBe(200)
    expect(after.events.map((e) => (e.message?.params as Json | undefined)?.progress)).toEqual([
      2,
      3,
      4,
      5,
      6,
      7,
      8,
      undefined,
    ])
    expect(textOf(resultOf(after))).toBe('detached work done on A')

    // The full log, replayed on B from the priming event, is exactly what the client saw on A then B.
    const seen = [...before, ...after.events]
    const full = await onA.at(b.url).resume(before[0]!.id!, { expectId: 'cut' })
    expect(full.events.map((e) => [e.id, e.message])).toEqual(seen.slice(1).map((e) => [e.id, e.message]))
    const ids = seen.map((e) => e.id!)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(parseEventId(id)?.streamId).toBe(stream)
  })

  it('endsTheSessionForAWhenBDeletesIt', async () => {
    const onA = await HandshakeClient.connect(a.url)
    expect(resultOf(await onA.request('ping'))).toStrictEqual({})
    expect((await onA.at(b.url).delete()).status).toBe(200)
    expect((await onA.request('ping')).status).toBe(404)
    expect((await onA.get()).status).toBe(404)
    expect((await onA.at(b.url).request('tools/list')).status).toBe(404)
  })

  it('endsTheGetStreamHeldOnAWhenBDeletesTheSessionGivenASharedBus', async () => {
    // The change bus is per process by default; instances that share one (here: in memory, as a
    // stand-in for a pub/sub bus) also carry the end of a session to the instance holding its streams.
    const bus = memoryNotificationBus()
    const a3 = await listen(build('A3', bus), { port: 0 })
    const b3 = await listen(build('B3', bus), { port: 0 })
    try {
      const onA = await HandshakeClient.connect(a3.url)
      const reader = new EventReader(await onA.get())
      expect((await reader.next())?.id?.startsWith(`${onA.sessionId}.`)).toBe(true)
      expect((await onA.at(b3.url).delete()).status).toBe(200)
      expect(await reader.next(2_000)).toBeUndefined()
    } finally {
      await Promise.all([a3.close(), b3.close()])
    }
  })

  it('neverGivesAnAnswerMeantForARequestOfAToARequestOfB', async () => {
    const a5 = await listen(build('A5'), { port: 0 })
    const b5 = await listen(build('B5'), { port: 0 })
    const readers: EventReader[] = []
    try {
      const onA = await HandshakeClient.connect(a5.url)
      const onB = onA.at(b5.url)
      readers.push(
        new EventReader(await onA.open('tools/call', { name: 'ask', arguments: {} }, { id: 'on-a' })),
      )
      const askA = await readers[0]!.nextMessage()
      readers.push(
        new EventReader(
          await onB.open('tools/call', { name: 'confirm-delete', arguments: {} }, { id: 'on-b' }),
        ),
      )
      const askB = await readers[1]!.nextMessage()
      expect((askA?.params as Json | undefined)?.message).toBe('Proceed?')
      expect((askB?.params as Json | undefined)?.message).toBe('Delete every record?')
      // The answer to A's question, routed to B.
      expect(
        (await onB.answer(askA!.id as string, { result: { action: 'accept', content: { ok: true } } }))
          .status,
      ).toBe(202)
      expect(await readers[1]!.quietFor(300)).toBe(true)
    } finally {
      await Promise.all(readers.map((r) => r.cancel()))
      await Promise.all([a5.close(), b5.close()])
    }
  })

  it('refusesASessionOfAOnBForAnotherPrincipal', async () => {
    const aAuth = await listen(build('A2'), {
      port: 0,
      auth: { authenticate: () => ({ subject: 'alice', issuer: 'idp' }) },
    })
    const bAuth = await listen(build('B2'), {
      port: 0,
      auth: { authenticate: () => ({ subject: 'mallory', issuer: 'idp' }) },
    })
    try {
      const onA = await HandshakeClient.connect(aAuth.url)
      expect((await onA.at(bAuth.url).request('ping')).status).toBe(404)
    } finally {
      await Promise.all([aAuth.close(), bAuth.close()])
    }
  })

  it('completesAModernMrtrRoundTripAcrossInstancesWithSharedRequestStateKeys', async () => {
    const first = await new McpHttpClient(a.url).callTool('ask')
    const asked = first.body?.result as Json
    expect(asked.resultType).toBe('input_required')
    const key = Object.keys(asked.inputRequests as Json)[0]!
    const second = await new McpHttpClient(b.url).callTool(
      'ask',
      {},
      {
        extra: {
          inputResponses: { [key]: { action: 'accept', content: { ok: true } } },
          requestState: asked.requestState,
        },
      },
    )
    expect(textOf(second.body?.result as Json)).toBe('ok=true')
  })

  describe('with the Redis bus', () => {
    const channel = `${prefix}bus`
    let appA: McpServer
    let appB: McpServer
    let a4: RunningServer
    let b4: RunningServer

    beforeAll(async () => {
      appA = build('A4', redisNotificationBus({ url: url!, channel }))
      appB = build('B4', redisNotificationBus({ url: url!, channel }))
      a4 = await listen(appA, { port: 0 })
      b4 = await listen(appB, { port: 0 })
      await sleep(100) // both subscribers listening
    })

    afterAll(async () => {
      await Promise.all([a4?.close(), b4?.close()])
    })

    it('completesOnATheQuestionAAskedWhenTheClientAnswersB', async () => {
      const onA = await HandshakeClient.connect(a4.url)
      const reader = new EventReader(
        await onA.open('tools/call', { name: 'ask', arguments: {} }, { id: 'x-ask' }),
      )
      const ask = await reader.nextMessage()
      expect(ask?.method).toBe('elicitation/create')
      const posted = await onA.at(b4.url).answer(ask!.id as string, {
        result: { action: 'accept', content: { ok: true } },
      })
      expect(posted.status).toBe(202)
      const final = await reader.nextMessage(3_000)
      expect(textOf((final as Json).result as Json)).toBe('ok=true')
    })

    it('stopsOnATheCallTheClientCancelsOnB', async () => {
      const onA = await HandshakeClient.connect(a4.url)
      const reader = new EventReader(
        await onA.open('tools/call', { name: 'ask', arguments: {} }, { id: 'x-cancel' }),
      )
      expect((await reader.nextMessage())?.method).toBe('elicitation/create')
      await onA.at(b4.url).notify('notifications/cancelled', { requestId: 'x-cancel' })
      const rest: Json[] = []
      for (;;) {
        const message = await reader.nextMessage(2_000)
        if (message === undefined) break
        rest.push(message)
      }
      expect(rest.filter((m) => m.id === 'x-cancel')).toEqual([])
    })

    it('endsTheGetStreamHeldOnAWhenBDeletesTheSession', async () => {
      const onA = await HandshakeClient.connect(a4.url)
      const reader = new EventReader(await onA.get())
      expect((await reader.next())?.id?.startsWith(`${onA.sessionId}.`)).toBe(true)
      expect((await onA.at(b4.url).delete()).status).toBe(200)
      expect(await reader.next(2_000)).toBeUndefined()
    })

    it('tellsASessionOnBThatAResourceChangedOnA', async () => {
      const onB = await HandshakeClient.connect(b4.url)
      expect(resultOf(await onB.request('resources/subscribe', { uri: 'config://shared' }))).toStrictEqual({})
      const reader = new EventReader(await onB.get())
      await reader.next()
      appA.notifyResourceUpdated('config://shared')
      const message = await reader.nextMessage(2_000)
      expect(message).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'config://shared' },
      })
      await reader.cancel()
    })
  })

  it('servesThe2025ElicitationWhenTheAnswerComesBackToTheInstanceThatAsked', async () => {
    const onA = await HandshakeClient.connect(a.url)
    const reply = await onA.callTool(
      'ask',
      {},
      { onRequest: () => ({ result: { action: 'accept', content: { ok: false } } }) },
    )
    expect(textOf(resultOf(reply))).toBe('ok=false')
  })
})
