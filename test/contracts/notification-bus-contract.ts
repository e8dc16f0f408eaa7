/**
 * @module notification-bus-contract
 * The behaviour every NotificationBus must show (memory, node:cluster, Redis, PostgreSQL alike),
 * as a vitest suite a bus's test file registers. On one bus: local delivery at once, unsubscribe,
 * a throwing listener that harms no other, close. On two instances sharing a channel (`pair`):
 * an event reaches the other instance and its own listeners exactly once, a local event stays
 * home, order is kept, and every kind of shared event arrives intact.
 *
 * A bus whose own listeners hear an event only when it comes back from what carries it (the
 * Durable Object bus: a Worker may not call one request's listener from another request) declares
 * `delivery: 'echoed'`; its local cases then wait for the event instead of finding it there when
 * `publish` returns, and show the same things otherwise.
 *
 * Remote delivery is awaited by polling with a deadline, never by a fixed sleep. "Never arrives"
 * is shown with a barrier instead: after the event under test, the same sender (or, for an echo,
 * the other instance once it saw the event) publishes a marker; every bus delivers one sender's
 * events in order, so once the marker is in, anything that was going to arrive before it has.
 */
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { NotificationBus, ServerEvent } from '@tessera/core/ports'
import { afterEach, describe, expect, it } from 'vitest'

export interface NotificationBusMakers {
  /** A fresh bus (of one instance). */
  single: () => NotificationBus | Promise<NotificationBus>
  /** Two fresh instances sharing one channel, each ready to receive the other's events. */
  pair?: () => Promise<[NotificationBus, NotificationBus]>
  /**
   * `at-once` (default): `publish` has delivered to this instance's listeners when it returns.
   * `echoed`: they hear it once it came back from what carries it, exactly once.
   */
  delivery?: 'at-once' | 'echoed'
  /** Resolves once every subscription made so far on `bus` listens (for a bus that subscribes asynchronously). */
  listening?: (bus: NotificationBus) => Promise<void>
}

/** Waits until `check` holds, polling; fails naming `what` after `ms`. */
export async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = performance.now() + ms
  while (!check()) {
    if (performance.now() > end) throw new Error(`${what}: not within ${ms} ms`)
    await sleep(5)
  }
}

/** Every event a listener saw, in order. */
function record(bus: NotificationBus): ServerEvent[] {
  const seen: ServerEvent[] = []
  bus.subscribe((event) => seen.push(event))
  return seen
}

const updated = (uri: string): ServerEvent => ({ type: 'resources/updated', uri })
const marker = () => updated(`marker://${randomBytes(6).toString('hex')}`)
const has = (seen: ServerEvent[], event: ServerEvent) =>
  seen.some((e) => JSON.stringify(e) === JSON.stringify(event))
const count = (seen: ServerEvent[], event: ServerEvent) =>
  seen.filter((e) => JSON.stringify(e) === JSON.stringify(event)).length

/** One of each event that crosses instances, with every field a receiver reads. */
export function sharedEvents(): ServerEvent[] {
  const sessionId = randomBytes(24).toString('base64url')
  return [
    { type: 'tools/list_changed' },
    { type: 'prompts/list_changed' },
    { type: 'resources/list_changed' },
    { type: 'resources/updated', uri: 'file:///docs/é%20readme.md?v=2#top' },
    { type: 'session-ended', sessionId },
    {
      type: 'client-response',
      sessionId,
      response: { jsonrpc: '2.0', id: 7, result: { action: 'accept', content: { ok: true, n: 1.5 } } },
      scopes: ['ops:read', 'ops:rollback'],
    },
    {
      type: 'client-response',
      sessionId,
      response: { jsonrpc: '2.0', id: 'r-8', error: { code: -32603, message: 'refused', data: [1, null] } },
      scopes: [],
    },
    { type: 'client-cancel', sessionId, requestId: 'req-1', scopes: ['admin'] },
    { type: 'client-cancel', sessionId, requestId: 42, scopes: [] },
  ]
}

/** Registers the contract suite for one bus; skipped (with the reason in its name) when `skip` is set. */
export function describeNotificationBus(
  name: string,
  make: NotificationBusMakers,
  options: { skip?: string } = {},
): void {
  if (options.skip !== undefined) {
    describe.skip(`NotificationBus contract: ${name} (skipped: ${options.skip})`, () => {
      it.skip(`skippedBecause${options.skip}`, () => {})
    })
    return
  }
  describe(`NotificationBus contract: ${name}`, () => {
    const opened: NotificationBus[] = []
    const single = async () => {
      const bus = await make.single()
      opened.push(bus)
      return bus
    }
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((bus) => bus.close()))
    })

    const echoed = make.delivery === 'echoed'
    const listening = async (...buses: NotificationBus[]) => {
      for (const bus of buses) await make.listening?.(bus)
    }
    /** At once: `check` holds already. Echoed: it comes to hold. */
    const delivered = async (check: () => boolean, what: string) => {
      if (echoed) await until(check, what)
      else expect(check(), what).toBe(true)
    }

    const localIt = echoed ? it.skip : it
    localIt('deliversAPublishedEventToTheListenersOfThisInstanceAtOnce', async () => {
      const bus = await single()
      const first = record(bus)
      const second = record(bus)
      for (const event of [...sharedEvents(), { type: 'shutdown' } as const]) {
        bus.publish(event)
        // Before publish returned: no await between.
        expect(first.at(-1)).toEqual(event)
        expect(second.at(-1)).toEqual(event)
      }
      expect(first).toHaveLength(sharedEvents().length + 1)
    })

    const echoedIt = echoed ? it : it.skip
    echoedIt('deliversAPublishedEventToEachListenerOfThisInstanceOnceInOrder', async () => {
      const bus = await single()
      const first = record(bus)
      const second = record(bus)
      await listening(bus)
      const events = sharedEvents()
      for (const event of events) bus.publish(event)
      await until(() => first.length >= events.length && second.length >= events.length, 'every event')
      const after = marker()
      bus.publish(after)
      await until(() => has(first, after) && has(second, after), 'the marker')
      expect(first).toEqual([...events, after])
      expect(second).toEqual([...events, after])
      // The one event that never leaves the instance still reaches its listeners.
      bus.publish({ type: 'shutdown' })
      await until(() => has(first, { type: 'shutdown' }) && has(second, { type: 'shutdown' }), 'the shutdown')
    })

    it('stopsDeliveringToAListenerThatUnsubscribedAndOnlyToIt', async () => {
      const bus = await single()
      const kept = record(bus)
      const dropped: ServerEvent[] = []
      const off = bus.subscribe((event) => dropped.push(event))
      await listening(bus)
      bus.publish(updated('file:///1'))
      await delivered(() => dropped.length === 1 && kept.length === 1, 'the first event')
      off()
      bus.publish(updated('file:///2'))
      // A second unsubscribe is harmless.
      off()
      bus.publish(updated('file:///3'))
      await delivered(() => kept.length === 3, 'the other events')
      expect(dropped).toEqual([updated('file:///1')])
      expect(kept).toEqual([updated('file:///1'), updated('file:///2'), updated('file:///3')])
    })

    it('goesOnDeliveringToTheOtherListenersWhenOneThrows', async () => {
      const bus = await single()
      const before = record(bus)
      bus.subscribe(() => {
        throw new Error('listener failure')
      })
      const after = record(bus)
      await listening(bus)
      expect(() => bus.publish(updated('file:///x'))).not.toThrow()
      expect(() => bus.publish({ type: 'tools/list_changed' })).not.toThrow()
      await delivered(() => before.length === 2 && after.length === 2, 'both events')
      expect(before).toEqual([updated('file:///x'), { type: 'tools/list_changed' }])
      expect(after).toEqual(before)
    })

    it('closesWithinAFewSecondsEvenTwice', async () => {
      const bus = await make.single()
      record(bus)
      bus.publish({ type: 'tools/list_changed' })
      const closing = bus.close()
      await expect(within(closing, 5_000)).resolves.toBeUndefined()
      await expect(within(bus.close(), 5_000)).resolves.toBeUndefined()
    })

    const pairIt = make.pair === undefined ? it.skip : it
    const pair = async (): Promise<[NotificationBus, NotificationBus]> => {
      const buses = await make.pair!()
      opened.push(...buses)
      return buses
    }

    pairIt(
      "delivers an event to the other instance, and to the sender's own listeners exactly once",
      async () => {
        const [a, b] = await pair()
        const onA = record(a)
        const onB = record(b)
        await listening(a, b)
        const event = updated(`file:///${randomBytes(6).toString('hex')}`)
        a.publish(event)
        await until(() => has(onB, event), 'the event on B')
        // B answers once it has the event: when the answer is back on A, an echo of A's own event
        // would have come back before it.
        const back = marker()
        b.publish(back)
        await until(() => has(onA, back), 'the answer on A')
        expect(count(onA, event)).toBe(1)
        expect(count(onB, event)).toBe(1)
        expect(count(onB, back)).toBe(1)
        expect(count(onA, back)).toBe(1)
      },
    )

    pairIt('never sends a shutdown event to the other instance', async () => {
      const [a, b] = await pair()
      const onA = record(a)
      const onB = record(b)
      await listening(a, b)
      a.publish({ type: 'shutdown' })
      const after = marker()
      a.publish(after)
      await until(() => has(onB, after), 'the event after the shutdown on B')
      expect(onB).toEqual([after])
      await until(() => onA.length === 2, 'both events on A')
      expect(onA).toEqual([{ type: 'shutdown' }, after])
    })

    pairIt("keeps one sender's events in order", async () => {
      const [a, b] = await pair()
      const onB = record(b)
      await listening(b)
      const sent = Array.from({ length: 50 }, (_, i) => updated(`file:///order/${i}`))
      // Identical events too: a transport must not merge them.
      sent.push({ type: 'tools/list_changed' }, { type: 'tools/list_changed' })
      for (const event of sent) a.publish(event)
      await until(() => onB.length >= sent.length, 'every event on B')
      const after = marker()
      a.publish(after)
      await until(() => has(onB, after), 'the last event on B')
      expect(onB).toEqual([...sent, after])
    })

    pairIt('carries every kind of shared event intact, both ways', async () => {
      const [a, b] = await pair()
      const onA = record(a)
      const onB = record(b)
      await listening(a, b)
      const events = sharedEvents()
      for (const event of events) a.publish(event)
      await until(() => onB.length >= events.length, 'every shared event on B')
      expect(onB).toEqual(events)
      const back = sharedEvents()
      for (const event of back) b.publish(event)
      await until(() => onA.length >= events.length + back.length, 'every shared event back on A')
      expect(onA).toEqual([...events, ...back])
    })

    pairIt('stops delivering to a listener of the other instance that unsubscribed', async () => {
      const [a, b] = await pair()
      const onB = record(b)
      const dropped: ServerEvent[] = []
      const off = b.subscribe((event) => dropped.push(event))
      await listening(b)
      a.publish(updated('file:///1'))
      await until(() => dropped.length === 1, 'the first event on B')
      off()
      a.publish(updated('file:///2'))
      await until(() => onB.length === 2, 'the second event on B')
      expect(dropped).toEqual([updated('file:///1')])
    })
  })
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms)
    }),
  ]).finally(() => clearTimeout(timer))
}
