/**
 * @module stores-bundle-contract
 * What every store package's bundle must show, whatever its backend: a real server built on it
 * keeps what its instances share there, so a second bundle on the same backend and prefix (another
 * process or host) sees the session the server opened, holds the single-use record the first one
 * claimed, replays the events the first one appended, reads and changes the task the first one
 * stored, finds the rate-limit bucket the first one emptied empty, and hears what the server
 * publishes. Each
 * package's test adds where its backend put them (keys, tables, channels).
 */
import { createServer, type McpServer, type Stores } from '@tessera/core'
import { createFetchHandler } from '@tessera/core/http'
import type { ServerEvent } from '@tessera/core/ports'
import { generateStateKey } from '@tessera/core/request-state'
import { expect } from 'vitest'
import { sampleStreamId } from './event-store-contract.ts'
import { until } from './notification-bus-contract.ts'
import { sampleSession } from './session-store-contract.ts'
import { nextOf, sampleTask } from './task-store-contract.ts'

export type FullStores = Required<Pick<Stores, 'replay' | 'sessions' | 'events' | 'tasks' | 'rateLimits'>> &
  Stores

/** What `expectBundlesShare` used, for the backend-specific checks that follow it. */
export interface Shared {
  server: McpServer
  sessionId: string
  replayKey: string
  streamId: string
  taskId: string
  rateLimitKey: string
}

/** Opens a 2025-11-25 session through the server's HTTP face; returns its id. */
export async function openSession(server: McpServer): Promise<string> {
  const response = await createFetchHandler(server)(
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
          clientInfo: { name: 'bundle', version: '1' },
        },
      }),
    }),
  )
  await response.text()
  const session = response.headers.get('mcp-session-id')
  if (response.status !== 200 || session === null) throw new Error(`initialize failed: ${response.status}`)
  return session
}

/** A server over `stores`, with keys so no ephemeral-key warning is logged. */
export function serverOn(stores: Stores): McpServer {
  return createServer({
    name: 'bundle',
    version: '1.0.0',
    requestState: { keys: [generateStateKey('bundle')] },
    stores,
  })
}

/**
 * Builds a server on `stores` and checks that `other` (a second bundle on the same backend and
 * prefix) shares each port with it. The caller closes both (`server.close()` closes `stores`).
 */
export async function expectBundlesShare(stores: FullStores, other: FullStores): Promise<Shared> {
  const server = serverOn(stores)
  const sessionId = await openSession(server)
  expect(await other.sessions.get(sessionId)).toMatchObject({ id: sessionId, protocolVersion: '2025-11-25' })

  const replayKey = `bundle-${sampleSession().id}`
  expect((await stores.replay.claim(replayKey, 'work', 60_000, 60_000)).kind).toBe('claimed')
  expect(await other.replay.claim(replayKey, 'work', 60_000, 60_000)).toEqual({
    kind: 'in_progress',
    what: 'work',
  })

  const streamId = sampleStreamId(sessionId)
  const priming = await stores.events.append(streamId, undefined)
  const one = await stores.events.append(streamId, { jsonrpc: '2.0', method: 'notifications/x' })
  await stores.events.finish(streamId)
  const seen: unknown[] = []
  expect(await other.events.replay(priming, (event) => seen.push(event), new AbortController().signal)).toBe(
    streamId,
  )
  expect(seen).toEqual([{ id: one, message: { jsonrpc: '2.0', method: 'notifications/x' } }])

  const task = sampleTask()
  expect(await stores.tasks.create(task)).toBe('created')
  expect(await other.tasks.get(task.id)).toEqual(task)
  expect(await other.tasks.replace(task.id, 1, nextOf(task, { status: 'cancelled' }))).toBe(true)
  expect((await stores.tasks.get(task.id))?.status).toBe('cancelled')

  const rateLimitKey = `bundle-${sampleSession().id}`
  const bucket = { capacity: 1, refillMs: 600_000 }
  expect((await stores.rateLimits.take(rateLimitKey, bucket)).allowed).toBe(true)
  expect(await other.rateLimits.take(rateLimitKey, bucket)).toMatchObject({ allowed: false, remaining: 0 })

  if (stores.bus && other.bus) {
    const events: ServerEvent[] = []
    other.bus.subscribe((event) => events.push(event))
    server.notifyResourceUpdated('file:///bundle')
    await until(() => events.length > 0, 'the update on the other bundle')
    expect(events).toEqual([{ type: 'resources/updated', uri: 'file:///bundle' }])
  }
  return { server, sessionId, replayKey, streamId, taskId: task.id, rateLimitKey }
}

export function closeAll(stores: Stores): Promise<unknown> {
  return Promise.all(Object.values(stores).map((store) => store?.close()))
}
