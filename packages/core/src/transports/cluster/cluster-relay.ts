/**
 * @module cluster-relay
 * The primary's half of the cluster bus: every bus event a worker sends is passed on to every
 * other worker, so an event published in one worker reaches listeners in all of them.
 */
import cluster, { type Worker } from 'node:cluster'
import { isClusterBusMessage } from '../../protocol/cluster/bus-message.ts'

/** Call once in the primary: relays each worker's events to the others. Returns a function that stops it. */
export function relayClusterBus(): () => void {
  const relay = (from: Worker, message: unknown) => {
    if (!isClusterBusMessage(message)) return
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
