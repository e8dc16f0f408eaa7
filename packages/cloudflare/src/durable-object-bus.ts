/**
 * @module durable-object-bus
 * The server event bus through the Durable Object. A Worker may not touch one request's I/O from
 * another's, so there is no bus-wide connection: each `subscribe` opens its own WebSocket to the
 * object, from the request that subscribes (a listen stream, a session's stream), and the events
 * reach its listener in that request. `publish` hands the event to the object, which sends it to
 * every subscribed socket of every isolate, this one's included: delivery is never synchronous,
 * and an isolate's own listeners hear its events the way the others do, once each.
 *
 * Events one isolate publishes in one turn travel in one call, and the object keeps each isolate's
 * calls in the order it sent them (they carry the relay's sequence numbers, and each call the
 * lowest number still in flight), so one sender's events arrive in order even when its calls
 * overtake each other. `settled` resolves once they have left; the fetch face keeps a Worker's
 * request alive until then.
 *
 * The wire message, the check of what arrives and the isolation of listeners are core's bus relay.
 */
import {
  createBusRelay,
  isLocalEvent,
  type NotificationBus,
  type ServerEvent,
  type ServerEventListener,
} from '@tessera/core/ports'
import type { StubOf } from './object-stub.ts'

/** How long a subscription waits before opening its socket again after the object dropped it. */
const RECONNECT_DELAYS_MS = [50, 250, 1000, 5000] as const
/**
 * The longest `settled` waits for a send: a send is one short call, and one started by a request
 * the platform has since torn down never settles.
 */
const SETTLE_LIMIT_MS = 10_000

interface Subscription {
  listener: ServerEventListener
  close(): void
}

/** The bus through the Durable Object, and a way to wait until every subscription made so far listens. */
export interface DurableObjectBus extends NotificationBus {
  /** Resolves once every subscription made so far has its socket open (events reach it from then on). */
  ready(): Promise<void>
  /** Resolves once every event published so far has reached the object (or failed, reported to `onError`). */
  settled(): Promise<void>
}

/**
 * Drops the calls older than `SETTLE_LIMIT_MS`: one started by a request the platform has since
 * torn down never settles, and must not keep saying it is in flight.
 */
function forgetAbandoned(sends: Map<number, { at: number }>): void {
  const oldest = Date.now() - SETTLE_LIMIT_MS
  for (const [first, { at }] of sends) {
    if (at > oldest) return
    sends.delete(first)
  }
}

export function durableObjectBus(stub: StubOf, onError?: (error: Error) => void): DurableObjectBus {
  const report = (error: unknown) => {
    try {
      onError?.(error instanceof Error ? error : new Error(String(error)))
    } catch {
      // A failing error handler must not break the bus.
    }
  }
  let closed = false
  let batch: string[] = []
  let batchFrom = 0
  // The calls still in flight, by the first number each carries, oldest first.
  const sends = new Map<number, { sent: Promise<void>; at: number }>()
  const flush = () => {
    const messages = batch
    batch = []
    forgetAbandoned(sends)
    const first = batchFrom
    const sent = stub()
      .publish(messages, sends.keys().next().value ?? first)
      .catch(report)
      .finally(() => sends.delete(first))
    sends.set(first, { sent, at: Date.now() })
  }
  const sender = createBusRelay({
    send(payload, seq) {
      if (batch.push(payload) === 1) {
        batchFrom = seq
        queueMicrotask(flush)
      }
    },
    onError: report,
  })
  const subscriptions = new Set<Subscription>()
  const opening = new Set<Promise<void>>()

  // After the microtask that sends this turn's batch, so the batch is among the sends awaited.
  async function settled(): Promise<void> {
    await Promise.resolve()
    if (sends.size === 0) return
    let timer: ReturnType<typeof setTimeout> | undefined
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SETTLE_LIMIT_MS)
    })
    await Promise.race([Promise.all(Array.from(sends.values(), ({ sent }) => sent)), limit])
    clearTimeout(timer)
  }

  const subscribe = (listener: ServerEventListener): (() => void) => {
    if (closed) return () => {}
    const relay = createBusRelay({ onError: report })
    const stopListening = relay.subscribe(listener)
    let socket: WebSocket | undefined
    let ended = false
    let attempt = 0
    const open = async (): Promise<void> => {
      try {
        const response = await stub().fetch('https://tessera.bus/subscribe', {
          headers: { Upgrade: 'websocket' },
        })
        const opened = (response as Response & { webSocket: (WebSocket & { accept(): void }) | null })
          .webSocket
        if (opened === null) throw new Error(`the bus object answered ${response.status} to a subscription`)
        opened.accept()
        if (ended) return opened.close(1000, 'unsubscribed')
        socket = opened
        attempt = 0
        opened.addEventListener('message', (event) => {
          if (typeof event.data === 'string') relay.receive(event.data)
        })
        opened.addEventListener('close', () => {
          if (socket === opened) socket = undefined
          if (!ended) reopen()
        })
      } catch (error) {
        report(error)
        if (!ended) reopen()
      }
    }
    const reopen = () => {
      const delay = RECONNECT_DELAYS_MS[Math.min(attempt++, RECONNECT_DELAYS_MS.length - 1)]
      setTimeout(() => {
        if (!ended) void open()
      }, delay)
    }
    const first = open()
    opening.add(first)
    void first.finally(() => opening.delete(first))
    const subscription: Subscription = {
      listener,
      close() {
        ended = true
        stopListening()
        subscriptions.delete(subscription)
        try {
          socket?.close(1000, 'unsubscribed')
        } catch {
          // Already closed.
        }
      },
    }
    subscriptions.add(subscription)
    return () => subscription.close()
  }

  return {
    publish(event: ServerEvent) {
      if (closed) return
      if (!isLocalEvent(event)) return sender.publish(event)
      for (const { listener } of [...subscriptions]) {
        try {
          listener(event)
        } catch (error) {
          report(error)
        }
      }
    },
    subscribe,
    async ready() {
      await Promise.all([...opening])
    },
    settled,
    async close() {
      closed = true
      for (const subscription of [...subscriptions]) subscription.close()
      await settled()
    },
  }
}
