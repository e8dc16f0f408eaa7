/**
 * @module sqlite-replay-store.test
 * The SQLite store runs the shared contract on a temporary file; each "connection" of the
 * contract is a separate database handle on that file, as separate processes would be.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { describeReplayStore } from '../../../test/contracts/replay-store-contract.ts'
import { sqliteReplayStore } from './sqlite-replay-store.ts'

const dir = mkdtempSync(join(tmpdir(), 'tessera-sqlite-'))
const path = join(dir, 'replay.db')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describeReplayStore('sqlite', () => sqliteReplayStore({ path }))

describe('sqliteReplayStore', () => {
  it('keepsRecordsAcrossAReopenOfTheFile', async () => {
    const first = sqliteReplayStore({ path, table: 'reopen' })
    const claim = await first.claim('k', 'x', 60_000, 60_000)
    if (claim.kind !== 'claimed') throw new Error('expected a claim')
    await first.complete('k', claim.fence, 'ok')
    await first.close()
    const second = sqliteReplayStore({ path, table: 'reopen' })
    expect(await second.claim('k', 'x', 60_000, 60_000)).toEqual({ kind: 'done', what: 'x', outcome: 'ok' })
    await second.close()
  })

  it('sweepsExpiredRows', async () => {
    const store = sqliteReplayStore({ path, table: 'sweep', sweepEvery: 3 })
    await store.claim('a', 'x', 10, 10)
    await store.claim('b', 'x', 10, 10)
    await new Promise((resolve) => setTimeout(resolve, 30))
    await store.claim('c', 'x', 10_000, 10_000)
    const Database = (await import('better-sqlite3')).default
    const raw = new Database(path, { readonly: true })
    expect(raw.prepare('SELECT key FROM sweep ORDER BY key').all()).toEqual([{ key: 'c' }])
    raw.close()
    await store.close()
  })

  it('turnsAClosedDatabaseIntoAStoreError', async () => {
    const store = sqliteReplayStore({ path })
    await store.close()
    await expect(store.claim('k', 'x', 100, 100)).rejects.toMatchObject({ code: 'TESSERA_STORE_UNAVAILABLE' })
    await store.close()
  })

  it('refusesATableNameThatIsNotAPlainIdentifier', () => {
    expect(() => sqliteReplayStore({ path, table: 'x; DROP TABLE y' })).toThrow(TypeError)
  })

  it('usesWALJournaling', async () => {
    const store = sqliteReplayStore({ path })
    await store.close()
    const Database = (await import('better-sqlite3')).default
    const raw = new Database(path, { readonly: true })
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal')
    raw.close()
  })
})
