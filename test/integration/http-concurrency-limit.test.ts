/**
 * @module http-concurrency-limit.test
 * `maxConcurrentRequests` over real HTTP: what counts is what a request is, not what its headers
 * claim. A 2025-11-25 call that names `subscriptions/listen` in `Mcp-Method` still takes a slot;
 * a real 2026-07-28 listen stream gives its slot back once it is a stream, and gives it back once
 * only, so a closed stream does not raise the limit.
 */
import { createServer, type McpServer } from '@tessera/core'
import { listen } from '@tessera/core/http'
import { describe, expect, it } from 'vitest'
import { gate, HandshakeClient, sleep } from '../helpers/handshake-client.ts'
import { McpHttpClient, SseReader } from '../helpers/mcp-http.ts'
import { silentLogger } from '../helpers/silent-logger.ts'

const LIMIT = 4

/** A server whose `slow` tool holds its request until the test opens the gate. */
function slowServer(): { app: McpServer; entered: () => number; release: () => void } {
  const held = gate()
  let entered = 0
  const app = createServer({ name: 'it-concurrency', version: '1.0.0', logger: silentLogger })
  app.tool('slow', { description: 'Waits for the test' }, async () => {
    entered++
    await held.promise
    return 'done'
  })
  return { app, entered: () => entered, release: held.open }
}

async function until(condition: () => boolean, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!condition() && Date.now() < deadline) await sleep(10)
}

describe('maxConcurrentRequests', () => {
  it('countsAHandshakeCallWhoseMcpMethodHeaderClaimsAListenStream', async () => {
    const { app, entered, release } = slowServer()
    const running = await listen(app, { port: 0, maxConcurrentRequests: LIMIT })
    try {
      const client = await HandshakeClient.connect(running.url)
      let answered = 0
      const calls = Array.from({ length: 12 }, () =>
        client
          .callTool('slow', {}, { headers: { 'mcp-method': 'subscriptions/listen' } })
          .finally(() => answered++),
      )
      // Every call is either running in the tool or already refused before the tool is released.
      await until(() => entered() + answered === calls.length)
      release()
      const statuses = (await Promise.all(calls)).map((reply) => reply.status)
      expect(statuses.filter((status) => status === 503)).toHaveLength(8)
      expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT)
    } finally {
      release()
      await running.close()
    }
  })

  it('leavesRealListenStreamsOutOfTheCount', async () => {
    const { app, release } = slowServer()
    app.tool('quick', { description: 'Answers at once' }, () => 'quick')
    const running = await listen(app, { port: 0, maxConcurrentRequests: 2 })
    const client = new McpHttpClient(running.url)
    const streams: SseReader[] = []
    try {
      for (let i = 0; i < 3; i++) {
        const response = await client.open('subscriptions/listen', {
          notifications: { toolsListChanged: true },
        })
        expect(response.status).toBe(200)
        const stream = new SseReader(response)
        expect((await stream.next())?.method).toBe('notifications/subscriptions/acknowledged')
        streams.push(stream)
      }
      expect((await client.callTool('quick')).status).toBe(200)
    } finally {
      for (const stream of streams) await stream.cancel()
      release()
      await running.close()
    }
  })

  it('givesAClosedListenStreamsSlotBackOnlyOnce', async () => {
    const { app, entered, release } = slowServer()
    const running = await listen(app, { port: 0, maxConcurrentRequests: 1 })
    const client = new McpHttpClient(running.url)
    try {
      for (let i = 0; i < 2; i++) {
        const response = await client.open('subscriptions/listen', {
          notifications: { toolsListChanged: true },
        })
        const stream = new SseReader(response)
        await stream.next()
        await stream.cancel()
      }
      // Let the server see both streams close before it is loaded again.
      await sleep(100)
      const first = client.callTool('slow')
      await until(() => entered() === 1)
      const second = await client.callTool('slow')
      expect(second.status).toBe(503)
      release()
      expect((await first).status).toBe(200)
    } finally {
      release()
      await running.close()
    }
  })
})
