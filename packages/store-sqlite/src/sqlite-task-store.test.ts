/**
 * @module sqlite-task-store.test
 * The TaskStore contract, run against the SQLite store on a temporary file (each store on its own
 * table) and in memory, plus what only this store has: two handles on one file, as two processes
 * would be, racing to replace one task.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { describeTaskStore, nextOf, sampleTask } from '../../../test/contracts/task-store-contract.ts'
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

  it('refusesATableNameThatIsNotAnIdentifier', () => {
    expect(() => sqliteTaskStore({ path: ':memory:', table: 'x; DROP TABLE y' })).toThrow(/table name/)
  })
})
