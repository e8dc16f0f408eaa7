/**
 * @module session-store-contract
 * The behaviour every handshake-era SessionStore must show (memory, SQLite, Redis and PostgreSQL
 * alike), as a vitest suite a store's test file registers. `make` receives the options under
 * test; real waiting is kept to the idle-expiry cases, with short idle times.
 */
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { SessionRecord, SessionStore } from '@tessera/core/ports'
import { afterEach, describe, expect, it } from 'vitest'

export interface SessionStoreOptions {
  idleMs?: number
  maxSessions?: number
}

export type MakeSessionStore = (options: SessionStoreOptions) => SessionStore | Promise<SessionStore>

export function sampleSession(overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    id: randomBytes(24).toString('base64url'),
    protocolVersion: '2025-11-25',
    clientCapabilities: { elicitation: { form: {} }, roots: {} },
    clientInfo: { name: 'contract-client', version: '1.0.0' },
    subscriptions: [],
    principal: 'anonymous',
    initialized: false,
    createdAt: Date.now(),
    ...overrides,
  }
}

/** Registers the contract suite for one SessionStore; skipped (with the reason in its name) when `skip` is set. */
export function describeSessionStore(
  name: string,
  make: MakeSessionStore,
  options: { skip?: string } = {},
): void {
  if (options.skip !== undefined) {
    describe.skip(`SessionStore contract: ${name} (skipped: ${options.skip})`, () => {
      it.skip(`skippedBecause${options.skip}`, () => {})
    })
    return
  }
  describe(`SessionStore contract: ${name}`, () => {
    const opened: SessionStore[] = []
    const open = async (opts: SessionStoreOptions = {}) => {
      const store = await make(opts)
      opened.push(store)
      return store
    }
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()))
    })

    it('givesBackWhatWasCreatedAsACopy', async () => {
      const store = await open()
      const session = sampleSession({ logLevel: 'info', subscriptions: ['file:///a'] })
      expect(await store.create(session)).toBe(true)
      const got = await store.get(session.id)
      expect(got).toEqual(session)
      got!.subscriptions.push('file:///mutated')
      got!.initialized = true
      expect(await store.get(session.id)).toEqual(session)
    })

    it('answersUndefinedForAnUnknownId', async () => {
      const store = await open()
      expect(await store.get('no-such-session')).toBeUndefined()
      expect(await store.get('')).toBeUndefined()
    })

    it('keepsSessionsApart', async () => {
      const store = await open()
      const a = sampleSession({ principal: 'a' })
      const b = sampleSession({ principal: 'b' })
      await store.create(a)
      await store.create(b)
      expect((await store.get(a.id))?.principal).toBe('a')
      expect((await store.get(b.id))?.principal).toBe('b')
    })

    it('appliesChangesForLaterReads', async () => {
      const store = await open()
      const session = sampleSession()
      await store.create(session)
      await store.apply(session.id, { kind: 'initialized' })
      await store.apply(session.id, { kind: 'log-level', level: 'warning' })
      await store.apply(session.id, { kind: 'subscribe', uri: 'config://x' })
      await store.apply(session.id, { kind: 'subscribe', uri: 'config://x' })
      await store.apply(session.id, { kind: 'subscribe', uri: 'config://y' })
      expect(await store.apply(session.id, { kind: 'unsubscribe', uri: 'config://y' })).toEqual({
        ...session,
        initialized: true,
        logLevel: 'warning',
        subscriptions: ['config://x'],
      })
    })

    it('doesNotBringAnEndedSessionBackOnAChange', async () => {
      const store = await open()
      const session = sampleSession()
      await store.create(session)
      expect(await store.delete(session.id)).toBe(true)
      expect(await store.apply(session.id, { kind: 'initialized' })).toBeUndefined()
      expect(await store.get(session.id)).toBeUndefined()
      const never = sampleSession()
      expect(await store.apply(never.id, { kind: 'subscribe', uri: 'config://z' })).toBeUndefined()
      expect(await store.get(never.id)).toBeUndefined()
    })

    it('keepsEveryChangeMadeConcurrently', async () => {
      const store = await open()
      const session = sampleSession()
      await store.create(session)
      await Promise.all([
        ...Array.from({ length: 10 }, (_, i) =>
          store.apply(session.id, { kind: 'subscribe', uri: `config://${i}` }),
        ),
        store.apply(session.id, { kind: 'log-level', level: 'debug' }),
      ])
      const stored = await store.get(session.id)
      expect(stored?.subscriptions.slice().sort()).toEqual(
        Array.from({ length: 10 }, (_, i) => `config://${i}`).sort(),
      )
      expect(stored?.logLevel).toBe('debug')
    })

    it('endsASessionOnDeleteOnce', async () => {
      const store = await open()
      const session = sampleSession()
      await store.create(session)
      expect(await store.delete(session.id)).toBe(true)
      expect(await store.get(session.id)).toBeUndefined()
      expect(await store.delete(session.id)).toBe(false)
      expect(await store.delete('no-such-session')).toBe(false)
    })

    it('endsASessionLeftIdleAndGetKeepsAUsedOneAlive', async () => {
      const store = await open({ idleMs: 400 })
      const idle = sampleSession()
      const used = sampleSession()
      await store.create(idle)
      await store.create(used)
      for (let i = 0; i < 3; i++) {
        await sleep(150)
        expect(await store.get(used.id)).toBeDefined()
      }
      // 450 ms after creation: the idle one is gone, the used one (last read 0 ms ago) lives.
      expect(await store.get(idle.id)).toBeUndefined()
      expect(await store.get(used.id)).toBeDefined()
      await sleep(550)
      expect(await store.get(used.id)).toBeUndefined()
    })

    it('refusesNewSessionsBeyondMaxSessionsAndADeleteMakesRoom', async () => {
      const store = await open({ maxSessions: 2 })
      const [a, b, c] = [sampleSession(), sampleSession(), sampleSession()]
      expect(await store.create(a)).toBe(true)
      expect(await store.create(b)).toBe(true)
      expect(await store.create(c)).toBe(false)
      expect(await store.get(c.id)).toBeUndefined()
      expect(await store.get(a.id)).toBeDefined()
      await store.delete(a.id)
      expect(await store.create(c)).toBe(true)
      expect(await store.get(c.id)).toBeDefined()
    })

    it('countsSessionsThatExpiredAsFreeRoom', async () => {
      const store = await open({ maxSessions: 2, idleMs: 200 })
      await store.create(sampleSession())
      await store.create(sampleSession())
      expect(await store.create(sampleSession())).toBe(false)
      await sleep(300)
      const fresh = sampleSession()
      expect(await store.create(fresh)).toBe(true)
      expect(await store.get(fresh.id)).toBeDefined()
    })

    for (const maxSessions of [undefined, 10]) {
      it(`countsTheLiveSessionsNotTheEndedOrExpiredOnesWithMaxSessions${maxSessions ?? 'unset'}`, async () => {
        // Margins of hundreds of milliseconds: a loaded machine delays each step of the test.
        const store = await open({ idleMs: 1000, ...(maxSessions === undefined ? {} : { maxSessions }) })
        expect(store.count).toBeTypeOf('function')
        expect(await store.count!()).toBe(0)
        const [a, b, c] = [sampleSession(), sampleSession(), sampleSession()]
        for (const session of [a, b, c]) await store.create(session)
        expect(await store.count!()).toBe(3)
        await store.delete(b.id)
        expect(await store.count!()).toBe(2)
        for (let i = 0; i < 2; i++) {
          await sleep(550)
          await store.get(a.id)
        }
        // 1,100 ms after creation: c went idle, a was used 0 ms ago.
        expect(await store.count!()).toBe(1)
      })
    }
  })
}
