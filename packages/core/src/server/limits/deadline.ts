/**
 * @module deadline
 * A call's deadline: the work is given a signal that aborts when the time is up (its context's
 * `ctx.signal` follows it), and the call is refused then, whatever the work does next. The work
 * is not cut short by force: a handler that ignores its signal runs on, and what it holds (a
 * single-use claim) is released or recorded by its own rules when it ends, so an answer is never
 * acted on twice because its first run overran.
 */
import { TesseraError } from '../../errors.ts'

/**
 * `run`, given the deadline's signal, refused with `TESSERA_DEADLINE_EXCEEDED` after `ms` (naming
 * `what`, `Tool 'deploy'`) as that signal aborts and `expired` is told; `run` without one when
 * there is no deadline.
 */
export function withDeadline<T>(
  ms: number | undefined,
  what: string,
  run: (deadline: AbortSignal | undefined) => Promise<T>,
  expired: () => void,
): Promise<T> {
  if (ms === undefined) return run(undefined)
  const deadline = new AbortController()
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = new TesseraError('TESSERA_DEADLINE_EXCEEDED', `${what} did not finish within ${ms} ms.`)
      deadline.abort(error)
      expired()
      reject(error)
    }, ms)
    // What the work does after the deadline settles nothing: the promise is already refused.
    run(deadline.signal).then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })
}
