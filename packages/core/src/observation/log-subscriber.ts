/**
 * @module log-subscriber
 * The steps of a request that make a log line: a requestState refused (with its real reason), what
 * the single-use guard met, a task created, a listen stream opened, a request a rate limit
 * refused (at debug: a flood of refusals must not become a flood of log lines), and a server fault. Failures
 * outside a request's steps (a store, a transport, a handler that threw) are logged where they
 * happen, with what only that place knows.
 */
import type { Logger } from './logger.ts'
import type { Step, StepEvent, Subscriber } from './observer.ts'

const LOGGED: ReadonlySet<Step> = new Set<Step>([
  'state-refused',
  'guard',
  'task',
  'listen-stream',
  'rate-limited',
  'failed',
])

/** The logger as a subscriber of the server's steps. */
export function logSubscriber(logger: Logger): Subscriber {
  return {
    steps: LOGGED,
    // A logger decides its level itself: every step it may log is built and handed to it.
    wants: () => true,
    on: (event) => logStep(logger, event),
  }
}

function logStep(logger: Logger, event: StepEvent): void {
  switch (event.step) {
    case 'state-refused':
      logger.warn(
        { event: 'request_state_refused', reason: event.reason, method: event.method },
        'requestState refused',
      )
      return
    case 'guard':
      logger.info({ event: `single_use_${event.type}`, detail: event.detail }, 'single-use guard')
      return
    case 'task':
      if (event.created)
        logger.info({ event: 'task_created', taskId: event.taskId, tool: event.tool }, 'task created')
      return
    case 'listen-stream':
      if (event.open)
        logger.debug({ event: 'listen_opened', subscriptionId: event.subscriptionId }, 'listen stream opened')
      return
    case 'rate-limited':
      logger.debug(
        {
          event: 'rate_limited',
          scope: event.scope,
          method: event.method,
          ...(event.tool === undefined ? {} : { tool: event.tool }),
          retryAfterMs: event.retryAfterMs,
        },
        `rate limited: ${event.limit}`,
      )
      return
    case 'failed':
      logger.error({ event: 'internal_error', method: event.method, err: event.error }, 'internal error')
      return
  }
}
