/**
 * @module @tessera/core/cluster
 * Running a Tessera server on the workers of `node:cluster`: `serveCluster`, which forks, relays,
 * replaces and stops them, and the event bus that crosses them.
 */
export { type ClusterBusOptions, clusterNotificationBus } from './server/cluster-bus.ts'
export { relayClusterBus } from './transports/cluster/cluster-relay.ts'
export type { ClusterOptions, RunningCluster } from './transports/cluster/cluster-settings.ts'
export { serveCluster } from './transports/cluster/serve-cluster.ts'
