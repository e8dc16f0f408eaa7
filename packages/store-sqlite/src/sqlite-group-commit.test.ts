import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from './sqlite-connection.ts'
import { groupCommit } from './sqlite-group-commit.ts'

const dir = mkdtempSync(join(tmpdir(), 'tessera-group-commit-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let path: string
let db: Database.Database
let reader: Database.Database
let file = 0

beforeEach(() => {
  path = join(dir, `g${file++}.db`)
  db = openDatabase(path, 0, 'FULL')
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)')
  reader = new Database(path, { readonly: true })
})
afterEach(() => {
  reader.close()
  db.close()
})

const storeError = (operation: string, error: unknown) =>
  new Error(`${operation} failed: ${error instanceof Error ? error.message : String(error)}`)
const keysSeenByAnotherHandle = () =>
  (reader.prepare('SELECT k FROM t ORDER BY k').all() as { k: string }[]).map((r) => r.k)

describe('groupCommit', () => {
  it('releasesAWriteOnlyOnceItsGroupHasCommitted', async () => {
    const commit = groupCommit(db, storeError)
    const insert = db.prepare('INSERT INTO t (k) VALUES (?)')
    const seenAtRelease: string[][] = []
    const writes = ['a', 'b', 'c'].map((k) =>
      commit.write('insert', () => insert.run(k)).then(() => seenAtRelease.push(keysSeenByAnotherHandle())),
    )
    // Asked for, not yet run: nothing is on disk and nothing is released.
    expect(keysSeenByAnotherHandle()).toEqual([])
    await Promise.all(writes)
    // Every write of the turn was already committed, together, when the first was released.
    expect(seenAtRelease).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
    ])
  })

  it('runsTheWritesOfOneTurnInOrderSoEachSeesTheOnesBefore', async () => {
    const commit = groupCommit(db, storeError)
    const insert = db.prepare('INSERT OR IGNORE INTO t (k) VALUES (?)')
    const results = await Promise.all(
      ['k', 'k', 'k'].map((k) => commit.write('claim', () => insert.run(k).changes)),
    )
    expect(results).toEqual([1, 0, 0])
  })

  it('failsOnlyTheWriteWhoseStatementFailed', async () => {
    const commit = groupCommit(db, storeError)
    const insert = db.prepare('INSERT INTO t (k) VALUES (?)')
    const outcomes = await Promise.allSettled([
      commit.write('insert', () => insert.run('a')),
      commit.write('insert', () => insert.run('a')),
      commit.write('insert', () => insert.run('b')),
    ])
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toMatch(/^insert failed: UNIQUE/)
    expect(keysSeenByAnotherHandle()).toEqual(['a', 'b'])
  })

  it('failsEveryWriteOfAGroupWhoseTransactionCannotStart', async () => {
    // Another process holds the write lock, and this handle does not wait for it (busy_timeout 0).
    const other = new Database(path)
    other.exec('BEGIN IMMEDIATE')
    const commit = groupCommit(db, storeError)
    const insert = db.prepare('INSERT INTO t (k) VALUES (?)')
    const outcomes = await Promise.allSettled(
      ['a', 'b'].map((k) => commit.write('insert', () => insert.run(k))),
    )
    other.exec('ROLLBACK')
    other.close()
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected'])
    expect((outcomes[0] as PromiseRejectedResult).reason.message).toMatch(
      /^insert failed: database is locked/,
    )
    expect(keysSeenByAnotherHandle()).toEqual([])
  })

  it('failsTheWholeGroupWhenAWriteEndedItsTransaction', async () => {
    const commit = groupCommit(db, storeError)
    const insert = db.prepare('INSERT INTO t (k) VALUES (?)')
    const outcomes = await Promise.allSettled([
      commit.write('insert', () => insert.run('a')),
      commit.write('insert', () => {
        // What SQLite does on a full disk or an I/O error: the transaction is rolled back.
        db.exec('ROLLBACK')
        throw new Error('disk I/O error')
      }),
      commit.write('insert', () => insert.run('b')),
    ])
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected'])
    expect(keysSeenByAnotherHandle()).toEqual([])
  })

  it('runsTheQueuedWritesWhenFlushedBeforeTheDatabaseCloses', async () => {
    const commit = groupCommit(db, storeError)
    const write = commit.write('insert', () => db.prepare('INSERT INTO t (k) VALUES (?)').run('a'))
    commit.flush()
    expect(keysSeenByAnotherHandle()).toEqual(['a'])
    await expect(write).resolves.toMatchObject({ changes: 1 })
  })

  it('releasesAGroupOnlyOnceTheWalSyncAfterItsCommitHasReturned', async () => {
    let finish = () => {}
    const synced = new Promise<void>((resolve) => (finish = resolve))
    const commit = groupCommit(db, storeError, (result) => synced.then(() => result))
    const insert = db.prepare('INSERT INTO t (k) VALUES (?)')
    let released = 0
    const writes = ['a', 'b'].map((k) => commit.write('insert', () => insert.run(k)).then(() => released++))
    await new Promise((resolve) => setTimeout(resolve, 5))
    // Committed and visible, but not acknowledged: the disk may not hold it yet.
    expect(keysSeenByAnotherHandle()).toEqual(['a', 'b'])
    expect(released).toBe(0)
    finish()
    await Promise.all(writes)
    expect(released).toBe(2)
  })

  it('failsEveryWriteOfAGroupWhoseWalCouldNotBeSynced', async () => {
    const commit = groupCommit(db, storeError, () =>
      Promise.reject(new Error('the write-ahead log could not be synced: EIO')),
    )
    const insert = db.prepare('INSERT INTO t (k) VALUES (?)')
    const outcomes = await Promise.allSettled(
      ['a', 'b'].map((k) => commit.write('claim', () => insert.run(k))),
    )
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected'])
    expect((outcomes[0] as PromiseRejectedResult).reason.message).toBe(
      'claim failed: the write-ahead log could not be synced: EIO',
    )
  })
})
