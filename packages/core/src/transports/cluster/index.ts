/**
 * @module cluster
 * Running a Tessera server on the workers of `node:cluster`: the event bus that crosses them.
 */
export { clusterNotificationBus, relayClusterBus } from './cluster-bus.ts'
