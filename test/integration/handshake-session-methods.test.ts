/**
 * @module handshake-session-methods.test
 * Methods inside a 2025-11-25 session: ping, logging/setLevel filtering notifications/message,
 * resources/subscribe and tool list changes on the GET stream with session-named event ids,
 * 2025-11-25 result shapes (no resultType, ttlMs or cacheScope), -32002 for a missing resource, and
 * -32601 for the 2026-07-28-only methods.
 */
import { describe, expect, it } from 'vitest'
import {
  EventReader,
  errorOf,
  HandshakeClient,
  type Json,
  resultOf,
  textOf,
} from '../helpers/handshake-client.ts'
import { app, connect, url, useHandshakeServer } from './fixtures/handshake-server.ts'

useHandshakeServer()

describe('methods of the session', () => {
  it('answersPingWithExactlyAnEmptyObject', async () => {
    const client = await connect()
    const reply = await client.request('ping', undefined, { id: 'p-1' })
    expect(reply.status).toBe(200)
    expect(reply.body).toStrictEqual({ jsonrpc: '2.0', id: 'p-1', result: {} })
  })

  it('answersPingEvenBeforeNotificationsInitialized', async () => {
    const client = new HandshakeClient(url)
    await client.initialize()
    expect(resultOf(await client.request('ping'))).toStrictEqual({})
  })

  it('sendsNotificationsMessageAtOrAboveTheLevelSetByLoggingSetLevel', async () => {
    const client = await connect()
    const quiet = await client.callTool('chatty')
    expect(quiet.notifications).toEqual([])
    expect(resultOf(await client.request('logging/setLevel', { level: 'warning' }))).toStrictEqual({})
    const reply = await client.callTool('chatty')
    expect(textOf(resultOf(reply))).toBe('logged')
    expect(reply.contentType).toMatch(/^text\/event-stream/)
    expect(reply.notifications).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'warning', data: 'warning line', logger: 'chatty' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'error', data: 'error line', logger: 'chatty' },
      },
    ])
    await client.request('logging/setLevel', { level: 'debug' })
    expect((await client.callTool('chatty')).notifications.map((n) => (n.params as Json).level)).toEqual([
      'debug',
      'info',
      'warning',
      'error',
    ])
  })

  it('refusesAnUnknownLoggingLevelWith32602', async () => {
    const client = await connect()
    expect(errorOf(await client.request('logging/setLevel', { level: 'loud' })).code).toBe(-32602)
  })

  it('deliversNotificationsResourcesUpdatedForSubscribedUrisOnTheGetStream', async () => {
    const client = await connect()
    const reader = new EventReader(await client.get())
    const priming = await reader.next()
    expect(priming?.id).toBeDefined()
    expect(priming?.message).toBeUndefined()
    expect(resultOf(await client.request('resources/subscribe', { uri: 'config://server' }))).toStrictEqual(
      {},
    )
    app.notifyResourceUpdated('config://other')
    app.notifyResourceUpdated('config://server')
    const event = await reader.next()
    expect(event?.id).toBeDefined()
    expect(event?.message).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'config://server' },
    })
    expect(await reader.quietFor(150)).toBe(true)
    expect(resultOf(await client.request('resources/unsubscribe', { uri: 'config://server' }))).toStrictEqual(
      {},
    )
    app.notifyResourceUpdated('config://server')
    expect(await reader.quietFor(200)).toBe(true)
    await reader.cancel()
  })

  it('deliversAToolListChangeOnTheGetStreamOfEveryOpenSession', async () => {
    const one = await connect()
    const two = await connect()
    const readers = [new EventReader(await one.get()), new EventReader(await two.get())]
    for (const reader of readers) await reader.next()
    app.tool('late', { description: 'Registered while serving' }, () => 'late')
    for (const reader of readers) {
      expect(await reader.nextMessage()).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: {},
      })
    }
    app.removeTool('late')
    for (const reader of readers) {
      expect((await reader.nextMessage())?.method).toBe('notifications/tools/list_changed')
      await reader.cancel()
    }
  })

  it('givesEventIdsOnTheGetStreamThatNameThisSession', async () => {
    const client = await connect()
    const reader = new EventReader(await client.get())
    const priming = await reader.next()
    expect(priming?.id?.startsWith(`${client.sessionId}.`)).toBe(true)
    expect(priming?.retry).toBeGreaterThan(0)
    await reader.cancel()
  })

  it('returnsResultsWithoutResultTypeTtlMsOrCacheScope', async () => {
    const client = await connect()
    const calls: Array<[string, Json | undefined]> = [
      ['tools/list', undefined],
      ['tools/call', { name: 'echo', arguments: { text: 'hi' } }],
      ['tools/call', { name: 'structured', arguments: {} }],
      ['resources/list', undefined],
      ['resources/templates/list', undefined],
      ['resources/read', { uri: 'config://server' }],
      ['resources/read', { uri: 'notes://known' }],
      ['prompts/list', undefined],
      ['prompts/get', { name: 'greet', arguments: { who: 'bob' } }],
      ['ping', undefined],
      ['logging/setLevel', { level: 'info' }],
    ]
    for (const [method, params] of calls) {
      const result = resultOf(await client.request(method, params))
      for (const key of ['resultType', 'ttlMs', 'cacheScope']) {
        expect(result, `${method} has ${key}`).not.toHaveProperty(key)
      }
    }
    const call = resultOf(await client.callTool('structured'))
    expect(call.structuredContent).toEqual({ n: 7 })
    expect(textOf(resultOf(await client.callTool('echo', { text: 'hi' })))).toBe('echo: hi')
  })

  it('answersAMissingResourceWith32002', async () => {
    const client = await connect()
    for (const uri of ['notes://missing', 'config://nope']) {
      const reply = await client.request('resources/read', { uri })
      expect(reply.status).toBe(200)
      expect(errorOf(reply).code).toBe(-32002)
    }
  })

  it('refusesTheModernOnlyMethodsInASession', async () => {
    const client = await connect()
    expect(errorOf(await client.request('server/discover')).code).toBe(-32601)
    expect(errorOf(await client.request('subscriptions/listen', { notifications: {} })).code).toBe(-32601)
  })

  it('answersBadToolArgumentsWith32602LikeTheModernEra', async () => {
    const client = await connect()
    expect(errorOf(await client.callTool('echo', { text: 3 })).code).toBe(-32602)
    expect(errorOf(await client.callTool('no-such-tool')).code).toBe(-32602)
  })
})
