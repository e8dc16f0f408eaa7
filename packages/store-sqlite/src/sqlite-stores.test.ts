/**
 * @module sqlite-stores.test
 * The bundle: a real server built on `sqliteStores` keeps what it shares in the file (a session
 * opened through the server, a single-use record, a stream's events are all visible to a second
 * bundle on the same file, as another process of the host would see them), on the tables its
 * prefix names, and the one database handle is closed exactly once, after the last store.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer, generateStateKey } from '@tessera/core'
import { createFetchHandler } from '@tessera/core/http'
import Database from 'better-sqlite3'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { sampleStreamId } from '../../../test/contracts/event-store-contract.ts'
import { sampleSession } from '../../../test/contracts/session-store-contract.ts'
import { sqliteStores } from './sqlite-stores.ts'

const dir = mkdtempSync(join(tmpdir(), 'tessera-sqlite-stores-'))
const path = join(dir, 'stores.db')
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const requestState = { keys: [generateStateKey('bundle')] }

/** Opens a 2025-11-25 session through the server's HTTP face; returns its id. */
async function openSession(server: ReturnType<typeof createServer>): Promise<string> {
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

function tables(): string[] {
  const raw = new Database(path, { readonly: true })
  try {
    return (
      raw.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as {
        name: string
      }[]
    ).map((row) => row.name)
  } finally {
    raw.close()
  }
}

describe('sqliteStores', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('gives a real server stores another process of the host shares, on the tables of its prefix', async () => {
    const stores = sqliteStores({ path, prefix: 'bundle_' })
    const server = createServer({ name: 'bundle', version: '1.0.0', requestState, stores })
    const other = sqliteStores({ path, prefix: 'bundle_' })
    try {
      // The server keeps its sessions in stores.sessions: the other bundle sees the one it opened.
      const sessionId = await openSession(server)
      expect(await other.sessions.get(sessionId)).toMatchObject({
        id: sessionId,
        protocolVersion: '2025-11-25',
      })
      const session = sampleSession()
      expect(await stores.sessions.create(session)).toBe(true)
      expect(await other.sessions.get(session.id)).toEqual(session)
      // A single-use record claimed through one is held for the other.
      const claim = await stores.replay.claim(`bundle-${session.id}`, 'work', 60_000, 60_000)
      expect(claim.kind).toBe('claimed')
      expect(await other.replay.claim(`bundle-${session.id}`, 'work', 60_000, 60_000)).toEqual({
        kind: 'in_progress',
        what: 'work',
      })
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
      expect(tables()).toEqual(
        expect.arrayContaining([
          'bundle_single_use',
          'bundle_sessions',
          'bundle_stream_events',
          'bundle_stream_events_streams',
        ]),
      )
    } finally {
      await server.close()
      await Promise.all([other.replay.close(), other.sessions.close(), other.events.close()])
    }
  })

  it('names its tables tessera_… by default', async () => {
    const stores = sqliteStores({ path })
    await stores.sessions.create(sampleSession())
    await Promise.all([stores.replay.close(), stores.sessions.close(), stores.events.close()])
    expect(tables()).toEqual(
      expect.arrayContaining(['tessera_single_use', 'tessera_sessions', 'tessera_stream_events']),
    )
  })

  it('closes its one database handle once, when the server closes the last store', async () => {
    const closes = vi.spyOn(Database.prototype, 'close')
    const stores = sqliteStores({ path })
    const server = createServer({ name: 'bundle', version: '1.0.0', requestState, stores })
    await server.close()
    expect(closes).toHaveBeenCalledTimes(1)
    await expect(stores.sessions.get('x')).rejects.toThrow(/not open/)
    await expect(stores.events.append(sampleStreamId(), undefined)).rejects.toThrow(/not open/)
    await expect(stores.replay.claim('k', 'x', 1_000, 1_000)).rejects.toMatchObject({
      code: 'TESSERA_STORE_UNAVAILABLE',
    })
  })

  it('keeps the handle open until the last store closes, and a second close does nothing', async () => {
    const closes = vi.spyOn(Database.prototype, 'close')
    const stores = sqliteStores({ path })
    await stores.replay.close()
    await stores.sessions.close()
    await stores.sessions.close()
    expect(closes).not.toHaveBeenCalled()
    // The last store still works on the shared handle.
    const stream = sampleStreamId()
    expect(await stores.events.append(stream, undefined)).toBe(`${stream}/1`)
    await stores.events.close()
    await stores.events.close()
    await stores.replay.close()
    expect(closes).toHaveBeenCalledTimes(1)
  })

  it('refuses a prefix that is not a plain identifier', () => {
    expect(() => sqliteStores({ path, prefix: 'x"; DROP TABLE y; --' })).toThrow(TypeError)
    expect(() => sqliteStores({} as never)).toThrow(TypeError)
  })
})
