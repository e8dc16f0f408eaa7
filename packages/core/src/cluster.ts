/**
 * @module @tessera/core/cluster
 * Running a Tessera server on the workers of `node:cluster`: `serveCluster`, which forks, relays,
 * replaces and stops them, and the event bus that crosses them.
 */
export { type ClusterBusOptions, clusterNotificationBus, relayClusterBus } from './server/cluster-bus.ts'
export { type ClusterOptions, type RunningCluster, serveCluster } from './transports/cluster/serve-cluster.ts'
