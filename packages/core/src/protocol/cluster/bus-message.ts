/**
 * @module bus-message
 * How an event of the server's bus travels between the processes of one `node:cluster`: a worker
 * sends it to the primary under one tag, and the primary relays it to every other worker. The tag
 * keeps bus messages apart from the cluster's own messages and from the application's.
 */
export const CLUSTER_BUS_TAG = 'tessera:bus'

/** A bus event as it crosses a process boundary: its encoded payload under the tag. */
export interface ClusterBusMessage {
  [CLUSTER_BUS_TAG]: string
}

export function isClusterBusMessage(value: unknown): value is ClusterBusMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ClusterBusMessage)[CLUSTER_BUS_TAG] === 'string'
  )
}
