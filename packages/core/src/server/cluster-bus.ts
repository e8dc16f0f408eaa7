/**
 * @module cluster-bus
 * The server event bus across the workers of one `node:cluster`: a worker delivers an event to
 * its own listeners at once and sends it to the primary, which relays it to every other worker.
 * So a resource update reaches streams held by any worker, and a handshake-era client's answer,
 * cancel or DELETE reaches the worker holding the request, whichever worker received it.
 */
import cluster, { type Worker } from 'node:cluster'
import { assertKnownOptions, type OptionNames } from '../option-checks.ts'
import { createBusRelay, type NotificationBus } from './notification-bus.ts'

const TAG = 'tessera:bus'

interface ClusterMessage {
  [TAG]: string
}

function isClusterMessage(value: unknown): value is ClusterMessage {
  return typeof value === 'object' && value !== null && typeof (value as ClusterMessage)[TAG] === 'string'
}

export interface ClusterBusOptions {
  /** A listener threw, or a message could not be read; delivery goes on. */
  onError?: (error: Error) => void
}

/** The bus of one worker (in the primary, or without cluster, it stays in this process). */
const CLUSTER_BUS_OPTION_NAMES = { onError: true } as const satisfies OptionNames<ClusterBusOptions>

export function clusterNotificationBus(options?: ClusterBusOptions): NotificationBus {
  assertKnownOptions(options, CLUSTER_BUS_OPTION_NAMES, 'clusterNotificationBus')
  const inWorker = cluster.isWorker && typeof process.send === 'function'
  const relay = createBusRelay({
    send: inWorker
      ? (payload) => {
          if (process.connected) process.send!({ [TAG]: payload } satisfies ClusterMessage)
        }
      : undefined,
    onError: options?.onError,
  })
  const onMessage = (message: unknown) => {
    if (isClusterMessage(message)) relay.receive(message[TAG])
  }
  if (inWorker) process.on('message', onMessage)
  return {
    publish: relay.publish,
    subscribe: relay.subscribe,
    async close() {
      if (inWorker) process.off('message', onMessage)
    },
  }
}

/** Call once in the primary: relays each worker's events to the others. Returns a function that stops it. */
export function relayClusterBus(): () => void {
  const relay = (from: Worker, message: unknown) => {
    if (!isClusterMessage(message)) return
    for (const worker of Object.values(cluster.workers ?? {})) {
      // A worker that is exiting misses the message; with a callback a closed channel is not
      // an 'error' event, which would take the primary down with it.
      if (worker && worker !== from && worker.isConnected()) worker.send(message, ignoreClosedChannel)
    }
  }
  cluster.on('message', relay)
  return () => {
    cluster.off('message', relay)
  }
}

function ignoreClosedChannel(): void {}
