/**
 * @module postgres-task-store.test
 * The TaskStore contract, run against PostgreSQL (TESSERA_TEST_POSTGRES_URL, on a table unique to
 * this run and dropped afterwards; without the URL the suites are skipped and say why), plus two
 * stores (as two hosts) racing to replace one task and to fill an owner's last places, and a
 * table written before rows had an owner column, whose tasks count once a store opens it.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import {
  describeTaskStore,
  freshOwner,
  nextOf,
  raceForOwnersPlaces,
  sampleTask,
} from '../../../test/contracts/task-store-contract.ts'
import { postgresTaskStore } from './postgres-task-store.ts'

const url = process.env['TESSERA_TEST_POSTGRES_URL']
const skip = url ? undefined : 'TESSERA_TEST_POSTGRES_URL is not set'
if (skip) process.stderr.write(`postgres-task-store tests skipped: ${skip}\n`)
const table = `tessera_test_tasks_${randomBytes(4).toString('hex')}`
const oldTable = `${table}_old`

describeTaskStore(
  'postgres',
  () => postgresTaskStore({ connectionString: url!, table }),
  skip ? { skip } : {},
)

describe.skipIf(!url)('postgresTaskStore', () => {
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`DROP TABLE IF EXISTS "${table}", "${oldTable}"`)
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

  it('letsTwoHostsFillAnOwnersPlacesOnlyUpToItsBound', async () => {
    const a = postgresTaskStore({ connectionString: url!, table })
    const b = postgresTaskStore({ connectionString: url!, table })
    try {
      const { tasks, created } = await raceForOwnersPlaces(a, b, 20, 5)
      expect(created).toBe(5)
      const stored = await Promise.all(tasks.map((task) => a.get(task.id)))
      expect(stored.filter((task) => task !== undefined)).toHaveLength(5)
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('countsTheTasksOfATableWrittenBeforeRowsHadAnOwner', async () => {
    const owner = freshOwner()
    const old = [sampleTask({ owner }), sampleTask({ owner })]
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    try {
      // The table as the store wrote it before it kept owners.
      await admin.query(`CREATE TABLE "${oldTable}" (
        id text PRIMARY KEY, version bigint NOT NULL, expires_at bigint, data text NOT NULL)`)
      for (const task of old)
        await admin.query(
          `INSERT INTO "${oldTable}" (id, version, expires_at, data) VALUES ($1, $2, $3, $4)`,
          [task.id, task.version, task.expiresAt, JSON.stringify(task)],
        )
    } finally {
      await admin.end()
    }
    // Two hosts of the new version may open the old table at once.
    const a = postgresTaskStore({ connectionString: url!, table: oldTable })
    const b = postgresTaskStore({ connectionString: url!, table: oldTable })
    try {
      const [first, second] = await Promise.all([
        a.create(sampleTask({ owner }), { maxPerOwner: 2 }),
        b.create(sampleTask({ owner }), { maxPerOwner: 2 }),
      ])
      expect([first, second]).toEqual(['owner-full', 'owner-full'])
      expect(await a.get(old[0]!.id)).toEqual(old[0])
      expect(await b.create(sampleTask({ owner }), { maxPerOwner: 3 })).toBe('created')
      expect(await a.replace(old[1]!.id, 1, nextOf(old[1]!))).toBe(true)
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('refusesATableNameThatIsNotAnIdentifier', () => {
    expect(() => postgresTaskStore({ connectionString: 'postgres://x', table: 'x"; DROP' })).toThrow(/table/)
  })
})
