/**
 * @module redis-stores.test
 * The bundle, against Redis at TESSERA_TEST_REDIS_URL (under a prefix unique to this run, keys
 * deleted afterwards): a real server built on `redisStores` keeps what it shares in Redis (a
 * session opened through the server, a single-use record, a stream's events are all visible to a
 * second bundle on the same URL, as another instance would see them), its events reach the other
 * bundle's bus, every key and the channel carry the prefix, and the one connection is closed
 * exactly once, after the last store, but never when it is the caller's client. Without the URL
 * the suite is skipped and says why.
 */
import { randomBytes } from 'node:crypto'
import { createServer, generateStateKey, type McpServer } from '@tessera/core'
import { createFetchHandler } from '@tessera/core/http'
import type { ServerEvent } from '@tessera/core/ports'
import { Redis } from 'ioredis'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { sampleStreamId } from '../../../test/contracts/event-store-contract.ts'
import { until } from '../../../test/contracts/notification-bus-contract.ts'
import { sampleSession } from '../../../test/contracts/session-store-contract.ts'
import { type RedisStores, redisStores } from './redis-stores.ts'

const url = process.env['TESSERA_TEST_REDIS_URL']
const skip = url ? undefined : 'TESSERA_TEST_REDIS_URL is not set'
if (skip) process.stderr.write(`redis-stores tests skipped: ${skip}\n`)
const runPrefix = `tessera-test:${randomBytes(6).toString('hex')}:`
let bundles = 0
const freshPrefix = () => `${runPrefix}${++bundles}:`
const requestState = { keys: [generateStateKey('bundle')] }

/** Opens a 2025-11-25 session through the server's HTTP face; returns its id. */
async function openSession(server: McpServer): Promise<string> {
  const handler = createFetchHandler(server)
  const response = await handler(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'bundle-test', version: '0.0.1' },
        },
      }),
    }),
  )
  await response.text()
  const session = response.headers.get('mcp-session-id')
  if (response.status !== 200 || session === null) throw new Error(`initialize failed: ${response.status}`)
  return session
}

const closeAll = (stores: RedisStores) =>
  Promise.all([stores.replay.close(), stores.sessions.close(), stores.events.close(), stores.bus.close()])

describe.skipIf(!url)('redisStores', () => {
  const admin = url ? new Redis(url) : undefined

  afterEach(() => {
    vi.restoreAllMocks()
  })

  afterAll(async () => {
    if (!admin) return
    const keys = await admin.keys(`${runPrefix}*`)
    if (keys.length > 0) await admin.del(...keys)
    await admin.quit()
  })

  it('gives a real server stores and a bus another instance shares, under its prefix', async () => {
    const prefix = freshPrefix()
    const stores = redisStores({ url: url!, prefix })
    const server = createServer({ name: 'bundle', version: '1.0.0', requestState, stores })
    const other = redisStores({ url: url!, prefix })
    try {
      await Promise.all([stores.bus.ready(), other.bus.ready()])
      // The server keeps its sessions in stores.sessions: the other bundle sees the one it opened.
      const sessionId = await openSession(server)
      expect(await other.sessions.get(sessionId)).toMatchObject({
        id: sessionId,
        protocolVersion: '2025-11-25',
      })
      expect(await admin!.exists(`${prefix}session:s:${sessionId}`)).toBe(1)
      // A single-use record claimed through one is held for the other.
      const session = sampleSession()
      expect((await stores.replay.claim(session.id, 'work', 60_000, 60_000)).kind).toBe('claimed')
      expect(await other.replay.claim(session.id, 'work', 60_000, 60_000)).toEqual({
        kind: 'in_progress',
        what: 'work',
      })
      expect(await admin!.exists(`${prefix}single-use:${session.id}`)).toBe(1)
      // Events appended through one replay through the other.
      const stream = sampleStreamId(session.id)
      const priming = await stores.events.append(stream, undefined)
      const one = await stores.events.append(stream, { jsonrpc: '2.0', method: 'notifications/x' })
      await stores.events.finish(stream)
      const seen: unknown[] = []
      expect(
        await other.events.replay(priming, (event) => seen.push(event), new AbortController().signal),
      ).toBe(stream)
      expect(seen).toEqual([{ id: one, message: { jsonrpc: '2.0', method: 'notifications/x' } }])
      expect(await admin!.exists(`${prefix}events:${stream}`)).toBe(1)
      // What the server publishes reaches the other instance's bus, on the prefixed channel.
      expect(await admin!.pubsub('NUMSUB', `${prefix}bus`)).toEqual([`${prefix}bus`, 2])
      const events: ServerEvent[] = []
      other.bus.subscribe((event) => events.push(event))
      server.notifyResourceUpdated('file:///bundle')
      await until(() => events.length === 1, 'the update on the other bundle')
      expect(events).toEqual([{ type: 'resources/updated', uri: 'file:///bundle' }])
    } finally {
      await server.close()
      await closeAll(other)
    }
  })

  it('closes its one connection once, when the server closes the last store', async () => {
    const quit = vi.spyOn(Redis.prototype, 'quit')
    const stores = redisStores({ url: url!, prefix: freshPrefix() })
    const server = createServer({ name: 'bundle', version: '1.0.0', requestState, stores })
    await stores.bus.ready()
    expect(await stores.sessions.create(sampleSession())).toBe(true)
    await server.close()
    expect(quit).toHaveBeenCalledTimes(1)
    const connection = quit.mock.contexts[0] as Redis
    await until(() => connection.status === 'end', 'the connection to end')
    await expect(stores.sessions.get('x')).rejects.toThrow(/not open/)
  })

  it('keeps the connection open until the last store closes, and a second close does nothing', async () => {
    const quit = vi.spyOn(Redis.prototype, 'quit')
    const stores = redisStores({ url: url!, prefix: freshPrefix() })
    await stores.replay.close()
    await stores.sessions.close()
    await stores.bus.close()
    await stores.bus.close()
    expect(quit).not.toHaveBeenCalled()
    // The last store still works on the shared connection.
    const stream = sampleStreamId()
    expect(await stores.events.append(stream, undefined)).toBe(`${stream}/1`)
    await stores.events.close()
    await stores.events.close()
    await stores.replay.close()
    expect(quit).toHaveBeenCalledTimes(1)
  })

  it("uses the caller's client and leaves it open", async () => {
    const client = new Redis(url!)
    const prefix = freshPrefix()
    const stores = redisStores({ client, prefix })
    const server = createServer({ name: 'bundle', version: '1.0.0', requestState, stores })
    const quit = vi.spyOn(client, 'quit')
    const session = sampleSession()
    expect(await stores.sessions.create(session)).toBe(true)
    await server.close()
    expect(quit).not.toHaveBeenCalled()
    expect(await client.ping()).toBe('PONG')
    expect(await client.exists(`${prefix}session:s:${session.id}`)).toBe(1)
    await client.quit()
  })
})

describe('redisStores without a server', () => {
  it('refuses to start without a url or a client, or with a bad timeout', () => {
    expect(() => redisStores({})).toThrow(TypeError)
    expect(() => redisStores({ url: 'redis://127.0.0.1:1', timeoutMs: 0 })).toThrow(RangeError)
  })
})
