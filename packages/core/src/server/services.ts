/**
 * @module services
 * What serving a request may use besides the catalogue: the requestState codec, the single-use
 * guard, the tasks, the event bus, the logger and the observer every step of a request is
 * announced to, and the round limit of a multi round-trip call. Each consumer names the part it needs (`Pick<Services, …>`).
 */
import type { Logger } from '../observation/logger.ts'
import type { Observer } from '../observation/observer.ts'
import type { SingleUseGuard } from '../security/replay/guard.ts'
import type { StateService } from './mrtr/state-service.ts'
import type { NotificationBus } from './notification-bus.ts'
import type { RateLimiter } from './rate-limits/rate-limits.ts'
import type { TaskRunner } from './tasks/task-run.ts'

export interface Services {
  readonly state: StateService
  /** The single-use guard, created on first use over the configured replay store. */
  readonly guard: SingleUseGuard
  /** Tasks over the configured task store, and the round limit their runs keep to. */
  readonly tasks: TaskRunner
  readonly bus: NotificationBus
  readonly logger: Logger
  /** Where each step of a request is announced: the logger, OpenTelemetry and the dev console subscribe. */
  readonly observer: Observer
  /** Rounds a multi round-trip call may take before it is refused. */
  readonly maxRounds: number
  /** The rate limits, over the configured rate-limit store. */
  readonly limiter: RateLimiter
}
