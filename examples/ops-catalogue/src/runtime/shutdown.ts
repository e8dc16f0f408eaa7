/**
 * @module shutdown
 * One graceful stop per process, whichever signal comes first. A worker in a terminal gets the
 * SIGINT of Ctrl-C and the primary's SIGTERM right after: the second must not cut the first short,
 * so repeats are ignored and only a deadline forces the exit.
 */
import type { AppLogger } from '../logger.ts'

const FORCE_AFTER_MS = 10_000

export function onShutdown(
  logger: AppLogger,
  stop: (reason: string) => Promise<void>,
): (reason: string) => void {
  let stopping = false
  const trigger = (reason: string): void => {
    if (stopping) return
    stopping = true
    logger.info({ event: 'shutdown', reason }, 'shutting down')
    setTimeout(() => {
      logger.error(
        { event: 'shutdown_forced' },
        `still running ${FORCE_AFTER_MS} ms after ${reason}: exiting`,
      )
      process.exit(1)
    }, FORCE_AFTER_MS).unref()
    // Exit explicitly once stopped: a forgotten handle (a pool, a timer) must not keep a stopped server alive.
    stop(reason).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ event: 'shutdown_failed', err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.once('SIGINT', () => trigger('SIGINT'))
  process.once('SIGTERM', () => trigger('SIGTERM'))
  // Ignore the repeats: once() above leaves later signals with no listener, which would kill at once.
  process.on('SIGINT', () => {})
  process.on('SIGTERM', () => {})
  return trigger
}
