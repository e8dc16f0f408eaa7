/**
 * @module http-modern-listen.test
 * `subscriptions/listen` on the 2026-07-28 wire: the acknowledgement carries the request id as
 * subscription id, list changes and resource updates reach only the subscriptions that asked for
 * them, an idle stream gets keep-alive comments, the stream ends with the listen result when the
 * server closes, and a listen without a filter is refused.
 */
import { createServer, type McpServer } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { memoryNotificationBus, type NotificationBus } from '@tessera/core/ports'
import { describe, expect, it } from 'vitest'
import {
  capturingLogger,
  errorOf,
  type Json,
  McpHttpClient,
  META,
  paramsOf,
  SseReader,
  sleep,
} from '../helpers/mcp-http.ts'

describe('subscriptions/listen', () => {
  async function listenOn(url: string, id: string | number, notifications: Json): Promise<SseReader> {
    const response = await new McpHttpClient(url).open('subscriptions/listen', { notifications }, { id })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    return new SseReader(response)
  }

  async function serverWithPrompt(): Promise<{ app: McpServer; running: RunningServer }> {
    const app = createServer({ name: 'it-listen', version: '1.0.0', logger: capturingLogger() })
    app.tool('first', { description: 'first tool' }, () => 'first')
    app.prompt('p1', { description: 'a prompt' }, () => ({ messages: [] }))
    return { app, running: await listen(app, { port: 0 }) }
  }

  it('acknowledgesFirstWithTheRequestIdAsSubscriptionIdOfTheSameType', async () => {
    const { running } = await serverWithPrompt()
    try {
      for (const id of ['listen-a', 77]) {
        const stream = await listenOn(running.url, id, {
          toolsListChanged: true,
          resourceSubscriptions: ['x://y'],
        })
        const ack = await stream.next()
        expect(ack?.method).toBe('notifications/subscriptions/acknowledged')
        const params = ack?.params as Json
        expect((params._meta as Json)[META.subscriptionId]).toBe(id)
        // No resources on this server: resourceSubscriptions is not honoured.
        expect(params.notifications).toEqual({ toolsListChanged: true })
        await stream.cancel()
      }
    } finally {
      await running.close()
    }
  })

  it('deliversAToolsListChangeAfterARuntimeRegistration', async () => {
    const { app, running } = await serverWithPrompt()
    try {
      const stream = await listenOn(running.url, 'sub-1', { toolsListChanged: true })
      expect((await stream.next())?.method).toBe('notifications/subscriptions/acknowledged')
      app.tool('second', { description: 'added at runtime' }, () => 'second')
      const change = await stream.next()
      expect(change?.method).toBe('notifications/tools/list_changed')
      expect((paramsOf(change)._meta as Json)[META.subscriptionId]).toBe('sub-1')
      expect(change).not.toHaveProperty('id')
      await stream.cancel()
    } finally {
      await running.close()
    }
  })

  it('neverSendsAToolsNotificationToAPromptsOnlySubscription', async () => {
    const { app, running } = await serverWithPrompt()
    try {
      const stream = await listenOn(running.url, 5, { promptsListChanged: true })
      const ack = await stream.next()
      expect(paramsOf(ack).notifications).toEqual({ promptsListChanged: true })
      app.tool('second', { description: 'added at runtime' }, () => 'second')
      app.removeTool('first')
      expect(await stream.quietFor(200)).toBe(true)
      app.prompt('p2', { description: 'another prompt' }, () => ({ messages: [] }))
      const change = await stream.next()
      expect(change?.method).toBe('notifications/prompts/list_changed')
      expect((paramsOf(change)._meta as Json)[META.subscriptionId]).toBe(5)
      await stream.cancel()
    } finally {
      await running.close()
    }
  })

  it('endsTheStreamWithTheListenResultWhenTheServerCloses', async () => {
    const { app, running } = await serverWithPrompt()
    try {
      const stream = await listenOn(running.url, 'closing', { toolsListChanged: true })
      await stream.next()
      await app.close()
      const final = await stream.next()
      expect(final).toEqual({
        jsonrpc: '2.0',
        id: 'closing',
        result: { resultType: 'complete', _meta: { [META.subscriptionId]: 'closing' } },
      })
      expect(await stream.next()).toBeUndefined()
      expect(stream.ended).toBe(true)
    } finally {
      await running.close()
    }
  })

  it('sendsKeepAliveCommentsOnAnIdleListenStream', async () => {
    const app = createServer({ name: 'it-keepalive', version: '1.0.0', logger: capturingLogger() })
    app.tool('t', { description: 't' }, () => 't')
    const running = await listen(app, { port: 0, keepAliveMs: 40 })
    try {
      const response = await new McpHttpClient(running.url).open('subscriptions/listen', {
        notifications: { toolsListChanged: true },
      })
      expect(response.headers.get('x-accel-buffering')).toBe('no')
      const stream = new SseReader(response)
      await stream.next()
      expect(await stream.quietFor(150)).toBe(true)
      expect(stream.seen).toMatch(/^: keep-alive$/m)
      await stream.cancel()
    } finally {
      await running.close()
    }
  })

  it('deliversResourceUpdatesForSubscribedUrisAndTheirSubResources', async () => {
    const app = createServer({ name: 'it-resources', version: '1.0.0', logger: capturingLogger() })
    app.resource('file:///project', { name: 'project' }, (uri) => ({ contents: [{ uri, text: 'p' }] }))
    const running = await listen(app, { port: 0 })
    try {
      const stream = await listenOn(running.url, 'res', { resourceSubscriptions: ['file:///project'] })
      const ack = await stream.next()
      expect(paramsOf(ack).notifications).toEqual({ resourceSubscriptions: ['file:///project'] })
      app.notifyResourceUpdated('file:///elsewhere')
      app.notifyResourceUpdated('file:///projector')
      app.notifyResourceUpdated('file:///project/src/a.ts')
      const update = await stream.next()
      expect(update).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'file:///project/src/a.ts', _meta: { [META.subscriptionId]: 'res' } },
      })
      expect(await stream.quietFor(100)).toBe(true)
      await stream.cancel()
    } finally {
      await running.close()
    }
  })

  it('refusesAListenWithoutANotificationsFilter', async () => {
    const { running } = await serverWithPrompt()
    try {
      const reply = await new McpHttpClient(running.url).request('subscriptions/listen', {})
      expect(errorOf(reply).code).toBe(-32602)
    } finally {
      await running.close()
    }
  })

  it('leavesNoSubscriptionBehindAClientThatLeftWhileItWasBeingAuthenticated', async () => {
    const bus = memoryNotificationBus()
    let open = 0
    const counting: NotificationBus = {
      ...bus,
      subscribe(listener) {
        open++
        const unsubscribe = bus.subscribe(listener)
        return () => {
          open--
          unsubscribe()
        }
      },
    }
    const app = createServer({
      name: 'it-listen-auth',
      version: '1.0.0',
      logger: capturingLogger(),
      stores: { bus: counting },
    })
    app.tool('first', { description: 'first tool' }, () => 'first')
    let entered!: () => void
    const authenticating = new Promise<void>((resolve) => {
      entered = resolve
    })
    const running = await listen(app, {
      port: 0,
      auth: {
        authenticate: async () => {
          entered()
          await sleep(100)
          return undefined
        },
      },
    })
    // The handshake era follows the bus from the start: count only what the listen adds.
    const before = open
    try {
      const controller = new AbortController()
      const opened = new McpHttpClient(running.url)
        .open(
          'subscriptions/listen',
          { notifications: { toolsListChanged: true } },
          { signal: controller.signal },
        )
        .catch(() => undefined)
      await authenticating
      controller.abort()
      await opened
      const deadline = Date.now() + 2_000
      while (open !== before && Date.now() < deadline) await sleep(20)
      expect(open).toBe(before)
    } finally {
      await running.close()
    }
  })
})
