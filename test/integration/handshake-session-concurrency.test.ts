/**
 * @module handshake-session-concurrency.test
 * 2025-11-25 session state under concurrent requests: with a session store whose reads and writes
 * take time, every subscription and the log level set by requests in flight together are kept.
 */
import { createServer } from '@tessera/core'
import { listen } from '@tessera/core/http'
import { memorySessionStore, type SessionStore } from '@tessera/core/ports'
import { describe, expect, it } from 'vitest'
import { EventReader, HandshakeClient, type Json, sleep } from '../helpers/handshake-client.ts'
import { capturingLogger } from '../helpers/mcp-http.ts'

describe('session state under concurrent requests', () => {
  /** A memory store whose reads take 20 ms, like a store across a network. */
  const slowStore = (inner: SessionStore): SessionStore => ({
    create: (session) => inner.create(session),
    get: async (id) => {
      const session = await inner.get(id)
      await sleep(20)
      return session
    },
    apply: async (id, change) => {
      await sleep(20)
      return inner.apply(id, change)
    },
    delete: (id) => inner.delete(id),
    close: () => inner.close(),
  })

  it('keepsEverySubscriptionMadeByConcurrentRequests', async () => {
    const inner = memorySessionStore()
    const slow = createServer({
      name: 'it-slow-store',
      version: '1.0.0',
      logging: true,
      logger: capturingLogger(),
      stores: { sessions: slowStore(inner) },
    })
    slow.resource('config://a', { name: 'a' }, (uri) => ({ contents: [{ uri, text: 'a' }] }))
    slow.resource('config://b', { name: 'b' }, (uri) => ({ contents: [{ uri, text: 'b' }] }))
    const server = await listen(slow, { port: 0 })
    try {
      const client = await HandshakeClient.connect(server.url)
      await Promise.all([
        client.request('resources/subscribe', { uri: 'config://a' }),
        client.request('resources/subscribe', { uri: 'config://b' }),
        client.request('logging/setLevel', { level: 'debug' }),
      ])
      const stored = await inner.get(client.sessionId!)
      expect({ subscriptions: stored?.subscriptions.slice().sort(), logLevel: stored?.logLevel }).toEqual({
        subscriptions: ['config://a', 'config://b'],
        logLevel: 'debug',
      })
      const reader = new EventReader(await client.get())
      await reader.next()
      slow.notifyResourceUpdated('config://a')
      slow.notifyResourceUpdated('config://b')
      const uris = [await reader.nextMessage(1_000), await reader.nextMessage(1_000)].map(
        (m) => (m?.params as Json | undefined)?.uri,
      )
      await reader.cancel()
      expect(uris.sort()).toEqual(['config://a', 'config://b'])
    } finally {
      await server.close()
    }
  })
})
