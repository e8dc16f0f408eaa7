/**
 * @module task-store-contract
 * The behaviour every TaskStore must show (memory, SQLite, Redis and PostgreSQL alike), as a
 * vitest suite a store's test file registers: records given back whole and as copies, an id taken
 * once, compare-and-set replacement of which exactly one of two racing writers wins, expiry
 * (a record past `expiresAt` is gone for every operation), and the bound on one owner's unexpired
 * tasks, which racing creates never exceed. Real waiting is kept to the expiry cases, with short
 * times.
 */
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { TaskRecord, TaskStore } from '@tessera/core/ports'
import { afterEach, describe, expect, it } from 'vitest'

export type MakeTaskStore = () => TaskStore | Promise<TaskStore>

export function sampleTask(overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = Date.now()
  return {
    id: randomBytes(24).toString('base64url'),
    version: 1,
    owner: 'anonymous',
    status: 'working',
    createdAt: now,
    updatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 1000,
    expiresAt: now + 60_000,
    lease: { fence: randomBytes(16).toString('base64url'), until: now + 15_000 },
    call: {
      tool: 'deploy',
      arguments: { service: 'billing', note: 'ünïcødé ✓' },
      protocolVersion: '2026-07-28',
      clientCapabilities: { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } },
      answers: [{ k: 'confirm', d: 'digest', a: { action: 'accept', content: { ok: true } } }],
      round: 1,
    },
    usedKeys: ['confirm'],
    ...overrides,
  }
}

/** An owner no other case uses, so a store shared by the cases counts only this one's tasks. */
export function freshOwner(): string {
  return `owner-${randomBytes(12).toString('base64url')}`
}

/**
 * `count` tasks of one new owner created at once, alternately through `a` and `b` (two instances
 * on one backend), under a bound of `max`: the tasks, and how many of them were created.
 */
export async function raceForOwnersPlaces(
  a: TaskStore,
  b: TaskStore,
  count: number,
  max: number,
): Promise<{ tasks: TaskRecord[]; created: number }> {
  const owner = freshOwner()
  const tasks = Array.from({ length: count }, () => sampleTask({ owner }))
  const results = await Promise.all(
    tasks.map((task, n) => (n % 2 === 0 ? a : b).create(task, { maxPerOwner: max })),
  )
  return { tasks, created: results.filter((r) => r === 'created').length }
}

/** The record a writer would store next: one version on, with `changes`. */
export function nextOf(task: TaskRecord, changes: Partial<TaskRecord> = {}): TaskRecord {
  return { ...task, ...changes, version: task.version + 1, updatedAt: Date.now() }
}

/** Registers the contract suite for one TaskStore; skipped (with the reason in its name) when `skip` is set. */
export function describeTaskStore(name: string, make: MakeTaskStore, options: { skip?: string } = {}): void {
  if (options.skip !== undefined) {
    describe.skip(`TaskStore contract: ${name} (skipped: ${options.skip})`, () => {
      it.skip(`skippedBecause${options.skip}`, () => {})
    })
    return
  }
  describe(`TaskStore contract: ${name}`, () => {
    const opened: TaskStore[] = []
    const open = async () => {
      const store = await make()
      opened.push(store)
      return store
    }
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()))
    })

    it('givesBackWhatWasCreatedWholeAndAsACopy', async () => {
      const store = await open()
      const task = sampleTask({ statusMessage: 'copying', progress: { progress: 1, total: 3 } })
      expect(await store.create(task)).toBe('created')
      const got = await store.get(task.id)
      expect(got).toEqual(task)
      got!.call.arguments.service = 'changed'
      expect((await store.get(task.id))?.call.arguments.service).toBe('billing')
    })

    it('takesAnIdOnce', async () => {
      const store = await open()
      const task = sampleTask()
      expect(await store.create(task)).toBe('created')
      expect(await store.create({ ...task, owner: 'someone else' })).toBe('taken')
      expect((await store.get(task.id))?.owner).toBe('anonymous')
    })

    it('knowsNothingOfAnUnknownId', async () => {
      const store = await open()
      expect(await store.get('never-created')).toBeUndefined()
      expect(await store.replace('never-created', 1, nextOf(sampleTask({ id: 'never-created' })))).toBe(false)
    })

    it('replacesOnlyAtTheVersionItWasRead', async () => {
      const store = await open()
      const task = sampleTask()
      await store.create(task)
      const second = nextOf(task, {
        status: 'completed',
        result: { content: [{ type: 'text', text: 'ok' }] },
      })
      expect(await store.replace(task.id, 1, second)).toBe(true)
      expect(await store.get(task.id)).toEqual(second)
      // A writer that read version 1 is too late now.
      expect(await store.replace(task.id, 1, nextOf(task, { status: 'failed' }))).toBe(false)
      expect((await store.get(task.id))?.status).toBe('completed')
    })

    it('refusesANextRecordThatDoesNotFollowTheVersion', async () => {
      const store = await open()
      const task = sampleTask()
      await store.create(task)
      await expect(store.replace(task.id, 1, { ...task, version: 5 })).rejects.toThrow(/version/)
      await expect(store.replace(task.id, 1, { ...nextOf(task), id: 'other' })).rejects.toThrow(/id/)
    })

    it('letsExactlyOneOfManyRacingWritersWin', async () => {
      const store = await open()
      const task = sampleTask()
      await store.create(task)
      const writers = Array.from({ length: 8 }, (_, n) =>
        store.replace(task.id, 1, nextOf(task, { statusMessage: `writer ${n}` })),
      )
      const won = (await Promise.all(writers)).filter(Boolean)
      expect(won).toHaveLength(1)
      expect((await store.get(task.id))?.version).toBe(2)
    })

    it('forgetsARecordPastItsExpiryForEveryOperation', async () => {
      const store = await open()
      const task = sampleTask({ expiresAt: Date.now() + 150 })
      await store.create(task)
      expect(await store.get(task.id)).toBeDefined()
      await sleep(300)
      expect(await store.get(task.id)).toBeUndefined()
      expect(await store.replace(task.id, 1, nextOf(task))).toBe(false)
      // Its id is free again.
      expect(await store.create({ ...task, expiresAt: Date.now() + 60_000 })).toBe('created')
    })

    it('keepsARecordWithoutExpiry', async () => {
      const store = await open()
      const task = sampleTask({ ttlMs: null, expiresAt: null })
      await store.create(task)
      expect((await store.get(task.id))?.expiresAt).toBeNull()
    })

    it('movesTheExpiryWithAReplacement', async () => {
      const store = await open()
      const task = sampleTask({ expiresAt: Date.now() + 200 })
      await store.create(task)
      expect(await store.replace(task.id, 1, nextOf(task, { expiresAt: Date.now() + 60_000 }))).toBe(true)
      await sleep(350)
      expect((await store.get(task.id))?.version).toBe(2)
    })

    it('keepsALargeResultWhole', async () => {
      const store = await open()
      const text = 'x'.repeat(256 * 1024)
      const task = sampleTask({ status: 'completed', result: { content: [{ type: 'text', text }] } })
      await store.create(task)
      expect((await store.get(task.id))?.result).toEqual({ content: [{ type: 'text', text }] })
    })

    it('refusesATaskBeyondItsOwnersBoundAndStoresNothing', async () => {
      const store = await open()
      const owner = freshOwner()
      const limits = { maxPerOwner: 2 }
      const first = sampleTask({ owner })
      expect(await store.create(first, limits)).toBe('created')
      // Every status counts, a finished task too, until it expires.
      expect(await store.create(sampleTask({ owner, status: 'completed' }), limits)).toBe('created')
      const third = sampleTask({ owner })
      expect(await store.create(third, limits)).toBe('owner-full')
      expect(await store.get(third.id)).toBeUndefined()
      expect(await store.create(third, limits)).toBe('owner-full')
      // An id already stored is taken, whatever its owner's count.
      expect(await store.create({ ...first, statusMessage: 'again' }, limits)).toBe('taken')
      expect(await store.create(sampleTask({ owner }), { maxPerOwner: 3 })).toBe('created')
    })

    it('boundsEachOwnerApart', async () => {
      const store = await open()
      const [alice, bob] = [freshOwner(), freshOwner()]
      const limits = { maxPerOwner: 1 }
      expect(await store.create(sampleTask({ owner: alice }), limits)).toBe('created')
      expect(await store.create(sampleTask({ owner: alice }), limits)).toBe('owner-full')
      expect(await store.create(sampleTask({ owner: bob }), limits)).toBe('created')
      // A create without a bound is not counted against one.
      expect(await store.create(sampleTask({ owner: alice }))).toBe('created')
    })

    it('stopsCountingAnOwnersTaskOnceItExpires', async () => {
      const store = await open()
      const owner = freshOwner()
      const limits = { maxPerOwner: 1 }
      const short = sampleTask({ owner, expiresAt: Date.now() + 150 })
      expect(await store.create(short, limits)).toBe('created')
      expect(await store.create(sampleTask({ owner }), limits)).toBe('owner-full')
      await sleep(300)
      expect(await store.create(sampleTask({ owner }), limits)).toBe('created')
    })

    it('keepsCountingATaskWhoseReplacementMovedItsExpiry', async () => {
      const store = await open()
      const owner = freshOwner()
      const limits = { maxPerOwner: 1 }
      const task = sampleTask({ owner, expiresAt: Date.now() + 200 })
      expect(await store.create(task, limits)).toBe('created')
      expect(await store.replace(task.id, 1, nextOf(task, { expiresAt: null, ttlMs: null }))).toBe(true)
      await sleep(350)
      expect(await store.create(sampleTask({ owner }), limits)).toBe('owner-full')
    })

    it('letsExactlyTheBoundOfManyRacingCreatesIn', async () => {
      const store = await open()
      const owner = freshOwner()
      const tasks = Array.from({ length: 20 }, () => sampleTask({ owner }))
      const results = await Promise.all(tasks.map((task) => store.create(task, { maxPerOwner: 5 })))
      expect(results.filter((r) => r === 'created')).toHaveLength(5)
      expect(results.filter((r) => r === 'owner-full')).toHaveLength(15)
      const stored = await Promise.all(tasks.map((task) => store.get(task.id)))
      expect(stored.filter((task) => task !== undefined)).toHaveLength(5)
    })

    it('rejectsCallsOnceClosed', async () => {
      const store = await make()
      await store.close()
      await expect(store.get('any')).rejects.toThrow()
      await expect(store.create(sampleTask())).rejects.toThrow()
    })
  })
}
