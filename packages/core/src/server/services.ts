/**
 * @module services
 * What serving a request may use besides the catalogue: the requestState codec, the single-use
 * guard, the tasks, the event bus, the logger and the telemetry, and the round limit of a multi
 * round-trip call. Each consumer names the part it needs (`Pick<Services, …>`).
 */
import type { Logger } from '../observation/logger.ts'
import type { SingleUseGuard } from '../security/replay/guard.ts'
import type { StateService } from './mrtr/state-service.ts'
import type { NotificationBus } from './notification-bus.ts'
import type { TaskRunner } from './tasks/task-run.ts'
import type { Telemetry } from './telemetry/telemetry.ts'

export interface Services {
  readonly state: StateService
  /** The single-use guard, created on first use over the configured replay store. */
  readonly guard: SingleUseGuard
  /** Tasks over the configured task store, and the round limit their runs keep to. */
  readonly tasks: TaskRunner
  readonly bus: NotificationBus
  readonly logger: Logger
  /** Spans and metrics through the OpenTelemetry API, when the application installed it. */
  readonly telemetry: Telemetry
  /** Rounds a multi round-trip call may take before it is refused. */
  readonly maxRounds: number
}
