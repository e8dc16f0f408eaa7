/**
 * @module session-store.test
 * The SessionStore contract for the in-memory store, beside it: the same suite every shared store
 * runs, so the default and the stores of the store packages cannot drift apart. Plus what only
 * the memory store has (an injected clock) and the one definition of each change,
 * `applySessionChange`.
 */
import { describe, expect, it } from 'vitest'
import { describeSessionStore, sampleSession } from '../../../../../test/contracts/session-store-contract.ts'
import { applySessionChange, MAX_SUBSCRIPTIONS, memorySessionStore } from './session-store.ts'

describeSessionStore('memory', (options) => memorySessionStore(options))

describe('memorySessionStore', () => {
  it('endsASessionIdlePastIdleMsByItsClockAndGetKeepsAUsedOneAlive', async () => {
    let now = 1_000
    const store = memorySessionStore({ idleMs: 100, now: () => now })
    const used = sampleSession()
    const idle = sampleSession()
    await store.create(used)
    await store.create(idle)
    now += 60
    expect(await store.get(used.id)).toEqual(used)
    now += 60
    expect(await store.get(used.id)).toEqual(used)
    expect(await store.get(idle.id)).toBeUndefined()
  })
})

describe('applySessionChange', () => {
  it('appliesEachKindOfChangeInPlace', () => {
    const session = sampleSession()
    applySessionChange(session, { kind: 'initialized' })
    applySessionChange(session, { kind: 'log-level', level: 'debug' })
    applySessionChange(session, { kind: 'subscribe', uri: 'file:///a' })
    applySessionChange(session, { kind: 'subscribe', uri: 'file:///b' })
    applySessionChange(session, { kind: 'subscribe', uri: 'file:///a' })
    applySessionChange(session, { kind: 'unsubscribe', uri: 'file:///b' })
    expect(session).toMatchObject({ initialized: true, logLevel: 'debug', subscriptions: ['file:///a'] })
  })

  it('keepsAtMostMaxSubscriptionsSubscriptions', () => {
    const session = sampleSession()
    for (let i = 0; i <= MAX_SUBSCRIPTIONS; i++)
      applySessionChange(session, { kind: 'subscribe', uri: `x://${i}` })
    expect(session.subscriptions).toHaveLength(MAX_SUBSCRIPTIONS)
    expect(session.subscriptions.at(-1)).toBe(`x://${MAX_SUBSCRIPTIONS - 1}`)
  })
})
