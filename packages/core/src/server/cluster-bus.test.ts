/**
 * @module cluster-bus.test
 * The NotificationBus contract for the bus of one process (`memoryNotificationBus`) and for the
 * node:cluster bus. Alone (the primary, or no cluster) the cluster bus stays in this process. For
 * two instances the test is a real primary: it relays with `relayClusterBus()` and forks two
 * workers, each holding a cluster bus; the two buses the contract sees are thin proxies that
 * forward publish, subscribe and unsubscribe to a worker, and bring its deliveries back, over the
 * same IPC channel the bus uses, under a tag of their own. Beside the contract: what reaches a
 * worker under the bus's tag but cannot be read is dropped and reported.
 */
import cluster, { type Worker } from 'node:cluster'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeNotificationBus, until } from '../../../../test/contracts/notification-bus-contract.ts'
import { relayClusterBus } from '../cluster.ts'
import { clusterNotificationBus } from './cluster-bus.ts'
import { CONTROL_TAG, type Command, controlOf, type Report } from './cluster-bus-worker.fixture.ts'
import {
  memoryNotificationBus,
  type NotificationBus,
  type ServerEvent,
  type ServerEventListener,
} from './notification-bus.ts'

const FIXTURE = fileURLToPath(new URL('./cluster-bus-worker.fixture.ts', import.meta.url))
const workers = new Set<Worker>()
let stopRelay: (() => void) | undefined

beforeAll(() => {
  cluster.setupPrimary({ exec: FIXTURE, execArgv: ['--import', 'tsx'] })
  stopRelay = relayClusterBus()
})

afterAll(async () => {
  stopRelay?.()
  await Promise.all([...workers].map(stop))
})

/** A worker running the fixture, once it reported ready. */
function fork(): Promise<Worker> {
  const worker = cluster.fork()
  workers.add(worker)
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (controlOf<Report>(message)?.kind !== 'ready') return
      worker.off('message', onMessage)
      resolve(worker)
    }
    worker.on('message', onMessage)
    worker.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready`)))
  })
}

/** Disconnects a worker and waits for it to exit (killing it if it lingers). */
function stop(worker: Worker): Promise<void> {
  workers.delete(worker)
  if (worker.isDead()) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => worker.kill('SIGKILL'), 2_000)
    worker.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    if (worker.isConnected()) worker.disconnect()
    else worker.kill('SIGKILL')
  })
}

function send(worker: Worker, command: Command): void {
  if (worker.isConnected()) worker.send({ [CONTROL_TAG]: command })
}

/** The cluster bus of `worker`, seen from the primary. */
function proxy(worker: Worker, errors: string[] = []): NotificationBus {
  const listeners = new Map<number, ServerEventListener>()
  let next = 0
  let closed: Promise<void> | undefined
  worker.on('message', (message: unknown) => {
    const report = controlOf<Report>(message)
    if (report?.kind === 'event') listeners.get(report.id)?.(report.event)
    if (report?.kind === 'error') errors.push(report.message)
  })
  return {
    publish(event) {
      send(worker, { kind: 'publish', event })
    },
    subscribe(listener) {
      const id = ++next
      listeners.set(id, listener)
      send(worker, { kind: 'subscribe', id })
      return () => {
        if (!listeners.delete(id)) return
        send(worker, { kind: 'unsubscribe', id })
      }
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        const onMessage = (message: unknown) => {
          if (controlOf<Report>(message)?.kind !== 'closed') return
          worker.off('message', onMessage)
          resolve()
        }
        worker.on('message', onMessage)
        send(worker, { kind: 'close' })
      }).then(() => stop(worker))
      return closed
    },
  }
}

async function workerPair(): Promise<[NotificationBus, NotificationBus]> {
  const [a, b] = await Promise.all([fork(), fork()])
  return [proxy(a), proxy(b)]
}

describeNotificationBus('memory', { single: () => memoryNotificationBus() })
describeNotificationBus('node:cluster', { single: () => clusterNotificationBus(), pair: workerPair })

describe('clusterNotificationBus', () => {
  it('staysInThisProcessOutsideAWorker', async () => {
    const bus = clusterNotificationBus()
    const seen: ServerEvent[] = []
    bus.subscribe((event) => seen.push(event))
    bus.publish({ type: 'tools/list_changed' })
    expect(seen).toEqual([{ type: 'tools/list_changed' }])
    await bus.close()
  })

  it('dropsAndReportsWhatArrivesUnderItsTagButCannotBeReadAndGoesOn', async () => {
    const [a, b] = await Promise.all([fork(), fork()])
    const errors: string[] = []
    const onA = proxy(a)
    const onB = proxy(b, errors)
    try {
      const seen: ServerEvent[] = []
      onB.subscribe((event) => seen.push(event))
      for (const payload of [
        'not json',
        JSON.stringify({ origin: 'x', seq: 1, event: { type: 'shutdown' } }),
        JSON.stringify({ origin: 'x', seq: 1, event: { type: 'resources/updated' } }),
        JSON.stringify({ origin: 'x', seq: 1, event: { type: 'made-up' } }),
      ]) {
        b.send({ 'tessera:bus': payload })
      }
      // Another tag, and no tag at all: not the bus's business, nothing to report.
      b.send({ 'some:other': 'not json' })
      b.send('plain text')
      onA.publish({ type: 'resources/updated', uri: 'file:///after' })
      await until(() => seen.length === 1, 'the event after the bad ones')
      expect(seen).toEqual([{ type: 'resources/updated', uri: 'file:///after' }])
      expect(errors).toHaveLength(4)
      expect(errors.every((message) => /unreadable/.test(message))).toBe(true)
    } finally {
      await Promise.all([onA.close(), onB.close()])
    }
  })
})
