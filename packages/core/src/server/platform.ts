/**
 * @module platform
 * What a server takes from the platform it runs on when its options leave it out: the logger, the
 * bus, and what else observes its requests. Each entry point names its platform (`@tessera/core`
 * on Node, its web build under the `workerd`, `worker` and `browser` export conditions), so no
 * module asks which runtime it is on.
 */
import type { Logger } from '../observation/logger.ts'
import type { Subscriber } from '../observation/observer.ts'
import type { Known, Telemetry } from '../observation/telemetry/telemetry.ts'
import type { NotificationBus } from './notification-bus.ts'

export interface Platform {
  /** The logger of a server given none. */
  defaultLogger(): Logger
  /** The bus of a server given none, and whether it reaches other processes. */
  defaultBus(): { bus: NotificationBus; shared: boolean }
  /** What observes requests besides the logger and OpenTelemetry (the development console). */
  readonly subscribers: readonly Subscriber[]
  /**
   * The OpenTelemetry subscriber of a server, which records only the `known` names; undefined
   * where the platform cannot load the API (a Worker), so its code is not even bundled there.
   */
  telemetry(version: string, enabled: boolean, known: Known): Telemetry | undefined
}
