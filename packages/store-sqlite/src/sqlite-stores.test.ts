/**
 * @module sqlite-stores.test
 * The bundle: a real server built on `sqliteStores` keeps what it shares in the file (a session
 * opened through the server, a single-use record, a stream's events, a task are all visible to a second
 * bundle on the same file, as another process of the host would see them), on the tables its
 * prefix names, and the one database handle is closed exactly once, after the last store, but
 * never when it is the caller's own.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { sampleStreamId } from '../../../test/contracts/event-store-contract.ts'
import { sampleSession } from '../../../test/contracts/session-store-contract.ts'
import { closeAll, expectBundlesShare, serverOn } from '../../../test/contracts/stores-bundle-contract.ts'
import { sqliteStores } from './sqlite-stores.ts'

const dir = mkdtempSync(join(tmpdir(), 'tessera-sqlite-stores-'))
const path = join(dir, 'stores.db')
afterAll(() => rmSync(dir, { recursive: true, force: true }))
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

  it('givesARealServerStoresAnotherProcessOfTheHostSharesOnTheTablesOfItsPrefix', async () => {
    const stores = sqliteStores({ path, prefix: 'bundle_' })
    const other = sqliteStores({ path, prefix: 'bundle_' })
    const shared = await expectBundlesShare(stores, other)
    try {
      expect(tables()).toEqual(
        expect.arrayContaining([
          'bundle_single_use',
          'bundle_sessions',
          'bundle_stream_events',
          'bundle_stream_events_streams',
          'bundle_tasks',
          'bundle_rate_limits',
        ]),
      )
    } finally {
      await shared.server.close()
      await closeAll(other)
    }
  })

  it('namesItsTablesTesseraByDefault', async () => {
    const stores = sqliteStores({ path })
    await stores.sessions.create(sampleSession())
    await closeAll(stores)
    expect(tables()).toEqual(
      expect.arrayContaining([
        'tessera_single_use',
        'tessera_sessions',
        'tessera_stream_events',
        'tessera_tasks',
      ]),
    )
  })

  it('closesItsOneDatabaseHandleOnceWhenTheServerClosesTheLastStore', async () => {
    const closes = vi.spyOn(Database.prototype, 'close')
    const stores = sqliteStores({ path })
    const server = serverOn(stores)
    await server.close()
    expect(closes).toHaveBeenCalledTimes(1)
    await expect(stores.sessions.get('x')).rejects.toThrow(/not open/)
    await expect(stores.events.append(sampleStreamId(), undefined)).rejects.toThrow(/not open/)
    await expect(stores.replay.claim('k', 'x', 1_000, 1_000)).rejects.toMatchObject({
      code: 'TESSERA_STORE_UNAVAILABLE',
    })
  })

  it('keepsTheHandleOpenUntilTheLastStoreClosesAndASecondCloseDoesNothing', async () => {
    const closes = vi.spyOn(Database.prototype, 'close')
    const stores = sqliteStores({ path })
    await stores.replay.close()
    await stores.tasks.close()
    await stores.sessions.close()
    await stores.sessions.close()
    await stores.rateLimits.close()
    expect(closes).not.toHaveBeenCalled()
    // The last store still works on the shared handle.
    const stream = sampleStreamId()
    expect(await stores.events.append(stream, undefined)).toBe(`${stream}/1`)
    await stores.events.close()
    await stores.events.close()
    await stores.replay.close()
    expect(closes).toHaveBeenCalledTimes(1)
  })

  it('usesTheCallersDatabaseAndLeavesItOpen', async () => {
    const database = new Database(path)
    const closes = vi.spyOn(Database.prototype, 'close')
    const stores = sqliteStores({ database, prefix: 'given_' })
    const session = sampleSession()
    await stores.sessions.create(session)
    await closeAll(stores)
    expect(closes).not.toHaveBeenCalled()
    expect(database.prepare('SELECT id FROM given_sessions WHERE id = ?').get(session.id)).toEqual({
      id: session.id,
    })
    database.close()
  })

  it('refusesAPrefixThatIsNotAPlainIdentifierAndAMissingPath', () => {
    expect(() => sqliteStores({ path, prefix: 'x"; DROP TABLE y; --' })).toThrow(TypeError)
    expect(() => sqliteStores({})).toThrow(TypeError)
  })
})
