/**
 * @module cluster-bus
 * The server event bus across the workers of one `node:cluster`: a worker delivers an event to
 * its own listeners at once and sends it to the primary, which relays it to every other worker.
 * So a resource update reaches streams held by any worker, and a handshake-era client's answer,
 * cancel or DELETE reaches the worker holding the request, whichever worker received it.
 */
import cluster, { type Worker } from 'node:cluster'
import {
  isLocalEvent,
  type NotificationBus,
  type ServerEvent,
  type ServerEventListener,
} from '../../server/notification-bus.ts'

const TAG = 'tessera:bus'

interface BusMessage {
  [TAG]: ServerEvent
}

function isBusMessage(value: unknown): value is BusMessage {
  return typeof value === 'object' && value !== null && TAG in value
}

/** The bus of one worker (in the primary, or without cluster, it stays in this process). */
export function clusterNotificationBus(): NotificationBus {
  const listeners = new Set<ServerEventListener>()
  const deliver = (event: ServerEvent) => {
    for (const listener of listeners) listener(event)
  }
  const onMessage = (message: unknown) => {
    if (isBusMessage(message) && !isLocalEvent(message[TAG])) deliver(message[TAG])
  }
  const inWorker = cluster.isWorker && typeof process.send === 'function'
  if (inWorker) process.on('message', onMessage)
  return {
    publish(event) {
      deliver(event)
      if (inWorker && !isLocalEvent(event) && process.connected)
        process.send!({ [TAG]: event } satisfies BusMessage)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      if (inWorker) process.off('message', onMessage)
    },
  }
}

/** Call once in the primary: relays each worker's events to the others. Returns a function that stops it. */
export function relayClusterBus(): () => void {
  const relay = (from: Worker, message: unknown) => {
    if (!isBusMessage(message)) return
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker && worker !== from && worker.isConnected()) worker.send(message)
    }
  }
  cluster.on('message', relay)
  return () => {
    cluster.off('message', relay)
  }
}
