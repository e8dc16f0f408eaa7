/**
 * @module postgres-task-store.test
 * The TaskStore contract, run against PostgreSQL (TESSERA_TEST_POSTGRES_URL, on a table unique to
 * this run and dropped afterwards; without the URL the suites are skipped and say why), plus two
 * stores (as two hosts) racing to replace one task.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { describeTaskStore, nextOf, sampleTask } from '../../../test/contracts/task-store-contract.ts'
import { postgresTaskStore } from './postgres-task-store.ts'

const url = process.env['TESSERA_TEST_POSTGRES_URL']
const skip = url ? undefined : 'TESSERA_TEST_POSTGRES_URL is not set'
if (skip) process.stderr.write(`postgres-task-store tests skipped: ${skip}\n`)
const table = `tessera_test_tasks_${randomBytes(4).toString('hex')}`

describeTaskStore(
  'postgres',
  () => postgresTaskStore({ connectionString: url!, table }),
  skip ? { skip } : {},
)

describe.skipIf(!url)('postgresTaskStore', () => {
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`DROP TABLE IF EXISTS "${table}"`)
    await admin.end()
  })

  it('letsOneOfTwoHostsWinAReplacement', async () => {
    const a = postgresTaskStore({ connectionString: url!, table })
    const b = postgresTaskStore({ connectionString: url!, table })
    try {
      const task = sampleTask()
      await a.create(task)
      const results = await Promise.all([
        a.replace(task.id, 1, nextOf(task, { statusMessage: 'a' })),
        b.replace(task.id, 1, nextOf(task, { statusMessage: 'b' })),
      ])
      expect(results.filter(Boolean)).toHaveLength(1)
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('refusesATableNameThatIsNotAnIdentifier', () => {
    expect(() => postgresTaskStore({ connectionString: 'postgres://x', table: 'x"; DROP' })).toThrow(/table/)
  })
})
