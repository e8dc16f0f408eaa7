/**
 * @module sqlite-task-store.test
 * The TaskStore contract, run against the SQLite store on a temporary file (each store on its own
 * table) and in memory, plus what only this store has: two handles on one file, as two processes
 * would be, racing to replace one task and to fill an owner's last places, and a table written
 * before rows had an owner column, whose tasks count once a store opens it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import {
  describeTaskStore,
  freshOwner,
  nextOf,
  raceForOwnersPlaces,
  sampleTask,
} from '../../../test/contracts/task-store-contract.ts'
import { sqliteTaskStore } from './sqlite-task-store.ts'

const dir = mkdtempSync(join(tmpdir(), 'tessera-sqlite-tasks-'))
const path = join(dir, 'tasks.db')
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let tables = 0
const freshTable = () => `tasks_${++tables}`

describeTaskStore('sqlite file', () => sqliteTaskStore({ path, table: freshTable() }))
describeTaskStore('sqlite :memory:', () => sqliteTaskStore({ path: ':memory:' }))

describe('sqliteTaskStore', () => {
  it('letsOneOfTwoHandlesOnOneFileWinAReplacement', async () => {
    const table = freshTable()
    const a = sqliteTaskStore({ path, table })
    const b = sqliteTaskStore({ path, table })
    try {
      const task = sampleTask()
      await a.create(task)
      const results = await Promise.all([
        a.replace(task.id, 1, nextOf(task, { statusMessage: 'a' })),
        b.replace(task.id, 1, nextOf(task, { statusMessage: 'b' })),
      ])
      expect(results.filter(Boolean)).toHaveLength(1)
      expect((await b.get(task.id))?.statusMessage).toBe(results[0] ? 'a' : 'b')
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('letsTwoHandlesOnOneFileFillAnOwnersPlacesOnlyUpToItsBound', async () => {
    const table = freshTable()
    const [a, b] = [sqliteTaskStore({ path, table }), sqliteTaskStore({ path, table })]
    try {
      const { tasks, created } = await raceForOwnersPlaces(a, b, 12, 5)
      expect(created).toBe(5)
      const stored = await Promise.all(tasks.map((task) => b.get(task.id)))
      expect(stored.filter((task) => task !== undefined)).toHaveLength(5)
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('countsTheTasksOfATableWrittenBeforeRowsHadAnOwner', async () => {
    const table = freshTable()
    const owner = freshOwner()
    const old = [sampleTask({ owner }), sampleTask({ owner })]
    const earlier = new Database(path)
    try {
      // The table as the store wrote it before it kept owners.
      earlier.exec(`CREATE TABLE "${table}" (
        id TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL, expires_at INTEGER, data TEXT NOT NULL
      ) WITHOUT ROWID`)
      const insert = earlier.prepare(
        `INSERT INTO "${table}" (id, version, expires_at, data) VALUES (?, ?, ?, ?)`,
      )
      for (const task of old) insert.run(task.id, task.version, task.expiresAt, JSON.stringify(task))
    } finally {
      earlier.close()
    }
    // Two processes of the new version may open the old table at once.
    const [a, b] = [sqliteTaskStore({ path, table }), sqliteTaskStore({ path, table })]
    try {
      expect(await a.get(old[0]!.id)).toEqual(old[0])
      expect(await b.create(sampleTask({ owner }), { maxPerOwner: 2 })).toBe('owner-full')
      expect(await a.create(sampleTask({ owner }), { maxPerOwner: 3 })).toBe('created')
      expect(await b.replace(old[1]!.id, 1, nextOf(old[1]!))).toBe(true)
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('refusesATableNameThatIsNotAnIdentifier', () => {
    expect(() => sqliteTaskStore({ path: ':memory:', table: 'x; DROP TABLE y' })).toThrow(/table name/)
  })
})
