/**
 * @module @tessera/core/cluster
 * Running a Tessera server on the workers of `node:cluster`: the event bus that crosses them.
 */
export { type ClusterBusOptions, clusterNotificationBus, relayClusterBus } from './server/cluster-bus.ts'
