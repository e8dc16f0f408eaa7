/**
 * @module platform-node
 * Node's defaults: pino on stderr, the node:cluster relay as the bus of a cluster worker (so a
 * change reaches its siblings) and memory otherwise, and the development console's taps.
 */
import cluster from 'node:cluster'
import { devSubscriber } from '../observation/dev-tap.ts'
import { defaultLogger } from '../observation/pino-logger.ts'
import { Telemetry } from '../observation/telemetry/telemetry.ts'
import { clusterNotificationBus } from './cluster-bus.ts'
import { memoryNotificationBus } from './notification-bus.ts'
import type { Platform } from './platform.ts'

export const nodePlatform: Platform = {
  defaultLogger: () => defaultLogger(),
  defaultBus: () =>
    cluster.isWorker
      ? { bus: clusterNotificationBus(), shared: true }
      : { bus: memoryNotificationBus(), shared: false },
  subscribers: [devSubscriber],
  telemetry: (version, enabled, known) => new Telemetry(version, enabled, known),
}
