import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { durableWrites, openConnection, walSyncOf } from './sqlite-connection.ts'

const dir = mkdtempSync(join(tmpdir(), 'tessera-connection-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0
const file = () => join(dir, `c${files++}.db`)

// SQLite's numbers for the `synchronous` pragma.
const NORMAL = 1
const FULL = 2
const level = (db: Database.Database) => db.pragma('synchronous', { simple: true })

describe('openConnection', () => {
  it('keepsFullOnAFileBySyncingItsWalOffTheEventLoop', async () => {
    const { db, release } = openConnection({ path: file() }, 'test', { synchronous: 'FULL' })
    // The commit does not sync; the stores wait for the WAL's sync instead.
    expect(level(db)).toBe(NORMAL)
    expect(walSyncOf(db)).toBeDefined()
    db.exec('CREATE TABLE t (k TEXT)')
    await expect(durableWrites(db)('written')).resolves.toBe('written')
    await release()
    expect(db.open).toBe(false)
  })

  it('syncsAtCommitWhereThereIsNoWalToSync', async () => {
    const { db, release } = openConnection({ path: ':memory:' }, 'test', { synchronous: 'FULL' })
    expect(level(db)).toBe(FULL)
    expect(walSyncOf(db)).toBeUndefined()
    await release()
  })

  it('leavesAHandleOpenedForNormalOrGivenByTheCallerToItsOwnPragmas', async () => {
    const normal = openConnection({ path: file() }, 'test', { synchronous: 'NORMAL' })
    expect(level(normal.db)).toBe(NORMAL)
    expect(walSyncOf(normal.db)).toBeUndefined()
    await normal.release()
    const given = new Database(file())
    const borrowed = openConnection({ database: given }, 'test', { synchronous: 'FULL' })
    expect(level(given)).toBe(FULL)
    expect(walSyncOf(borrowed.db)).toBeUndefined()
    await borrowed.release()
    expect(given.open).toBe(true)
    given.close()
  })

  it('acknowledgesNoWriteOnAHandleOnceItIsReleased', async () => {
    const { db, release } = openConnection({ path: file() }, 'test', { synchronous: 'FULL' })
    db.exec('CREATE TABLE t (k TEXT)')
    await release()
    // A closed handle's sync refuses: nothing more is acknowledged on it.
    await expect(durableWrites(db)('written')).rejects.toThrow('the write-ahead log is closed')
  })
})
