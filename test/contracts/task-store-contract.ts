/**
 * @module task-store-contract
 * The behaviour every TaskStore must show (memory, SQLite, Redis and PostgreSQL alike), as a
 * vitest suite a store's test file registers: records given back whole and as copies, an id taken
 * once, compare-and-set replacement of which exactly one of two racing writers wins, and expiry
 * (a record past `expiresAt` is gone for every operation). Real waiting is kept to the expiry
 * cases, with short times.
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

/** The record a writer would store next: one version on, with `changes`. */
export function nextOf(task: TaskRecord, changes: Partial<TaskRecord> = {}): TaskRecord {
  return { ...task, ...changes, version: task.version + 1, updatedAt: Date.now() }
}

/** Registers the contract suite for one TaskStore; skipped (with the reason in its name) when `skip` is set. */
export function describeTaskStore(name: string, make: MakeTaskStore, options: { skip?: string } = {}): void {
  if (options.skip !== undefined) {
    describe.skip(`TaskStore contract: ${name} (skipped: ${options.skip})`, () => {
      it.skip(`skipped: ${options.skip}`, () => {})
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
      expect(await store.create(task)).toBe(true)
      const got = await store.get(task.id)
      expect(got).toEqual(task)
      got!.call.arguments.service = 'changed'
      expect((await store.get(task.id))?.call.arguments.service).toBe('billing')
    })

    it('takesAnIdOnce', async () => {
      const store = await open()
      const task = sampleTask()
      expect(await store.create(task)).toBe(true)
      expect(await store.create({ ...task, owner: 'someone else' })).toBe(false)
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
      expect(await store.create({ ...task, expiresAt: Date.now() + 60_000 })).toBe(true)
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

    it('rejectsCallsOnceClosed', async () => {
      const store = await make()
      await store.close()
      await expect(store.get('any')).rejects.toThrow()
      await expect(store.create(sampleTask())).rejects.toThrow()
    })
  })
}
