/**
 * @module create-server.test
 * What `close()` owes the stores a server was given: each closed exactly once, whether the server
 * used it or not (a store package's bundle releases its shared connection after the last of its
 * stores closes), and listen streams told first.
 */
import { describe, expect, it } from 'vitest'
import { silentLogger } from '../../../../test/helpers/silent-logger.ts'
import { memoryReplayStore } from '../security/replay/memory-replay-store.ts'
import { createServer } from './create-server.ts'
import { memoryEventStore } from './handshake/event-store.ts'
import { memorySessionStore } from './handshake/session-store.ts'
import { memoryNotificationBus, type ServerEvent } from './notification-bus.ts'
import { memoryRateLimitStore } from './rate-limits/memory-rate-limit-store.ts'
import type { Stores } from './stores.ts'
import { memoryTaskStore } from './tasks/task-store.ts'

/** The six ports, each counting its closes. */
function countedStores(): { stores: Required<Stores>; closes: Record<string, number> } {
  const closes: Record<string, number> = {
    replay: 0,
    sessions: 0,
    events: 0,
    tasks: 0,
    bus: 0,
    rateLimits: 0,
  }
  const counted = <T extends { close(): Promise<void> }>(name: string, store: T): T =>
    Object.assign(Object.create(store) as T, {
      close: async () => {
        closes[name]!++
        await store.close()
      },
    })
  return {
    closes,
    stores: {
      replay: counted('replay', memoryReplayStore()),
      sessions: counted('sessions', memorySessionStore()),
      events: counted('events', memoryEventStore()),
      tasks: counted('tasks', memoryTaskStore()),
      bus: counted('bus', memoryNotificationBus()),
      rateLimits: counted('rateLimits', memoryRateLimitStore()),
    },
  }
}

describe('McpServer.close', () => {
  it('closesEveryStoreItWasGivenExactlyOnce', async () => {
    const { stores, closes } = countedStores()
    await createServer({ name: 's', version: '1', logger: silentLogger, stores }).close()
    expect(closes).toEqual({ replay: 1, sessions: 1, events: 1, tasks: 1, bus: 1, rateLimits: 1 })
  })

  it('closesTheHandshakeStoresEvenWhenTheHandshakeEraIsOff', async () => {
    const { stores, closes } = countedStores()
    await createServer({ name: 's', version: '1', logger: silentLogger, stores, handshake: false }).close()
    expect(closes).toEqual({ replay: 1, sessions: 1, events: 1, tasks: 1, bus: 1, rateLimits: 1 })
  })

  it('tellsListenersItIsShuttingDownBeforeItClosesTheBus', async () => {
    const { stores } = countedStores()
    const seen: ServerEvent[] = []
    stores.bus.subscribe((event) => seen.push(event))
    await createServer({ name: 's', version: '1', logger: silentLogger, stores }).close()
    expect(seen).toEqual([{ type: 'shutdown' }])
  })
})
