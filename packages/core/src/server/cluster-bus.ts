/**
 * @module cluster-bus
 * The server event bus across the workers of one `node:cluster`: a worker delivers an event to
 * its own listeners at once and sends it to the primary, whose relay (`transports/cluster/`) sends it
 * to every other worker.
 * So a resource update reaches streams held by any worker, and a handshake-era client's answer,
 * cancel or DELETE reaches the worker holding the request, whichever worker received it.
 */
import cluster from 'node:cluster'
import { assertKnownOptions, type OptionNames } from '../option-checks.ts'
import {
  CLUSTER_BUS_TAG,
  type ClusterBusMessage,
  isClusterBusMessage,
} from '../protocol/cluster/bus-message.ts'
import { createBusRelay, type NotificationBus } from './notification-bus.ts'

/** How `clusterNotificationBus` reports what it could not deliver. */
export interface ClusterBusOptions {
  /** A listener threw, or a message could not be read; delivery goes on. */
  onError?: (error: Error) => void
}

const CLUSTER_BUS_OPTION_NAMES = { onError: true } as const satisfies OptionNames<ClusterBusOptions>

/**
 * The event bus of one `node:cluster` worker: it delivers an event to its own listeners at once
 * and sends it to the primary, whose relay (`serveCluster` starts one, or `relayClusterBus`)
 * passes it to every other worker. A server in a worker uses it when `stores.bus` is not given;
 * in the primary, or without cluster, it stays in this process.
 */
export function clusterNotificationBus(options?: ClusterBusOptions): NotificationBus {
  assertKnownOptions(options, CLUSTER_BUS_OPTION_NAMES, 'clusterNotificationBus')
  const inWorker = cluster.isWorker && typeof process.send === 'function'
  const relay = createBusRelay({
    send: inWorker
      ? (payload) => {
          if (process.connected) process.send!({ [CLUSTER_BUS_TAG]: payload } satisfies ClusterBusMessage)
        }
      : undefined,
    onError: options?.onError,
  })
  const onMessage = (message: unknown) => {
    if (isClusterBusMessage(message)) relay.receive(message[CLUSTER_BUS_TAG])
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
