/**
 * @module progress-display
 * Progress notifications as a bar on stderr: a bar when the server says how far it has to go,
 * a spinner with the latest message when it does not.
 */
import * as clack from '@clack/prompts'

const SIZE = 40

export interface ProgressDisplay {
  update(progress: { progress: number; total?: number; message?: string }): void
  /** Removes the bar before anything else is written (a prompt, the result). */
  pause(): void
  end(): void
}

export function progressDisplay(): ProgressDisplay {
  let bar: ReturnType<typeof clack.progress> | undefined
  let shown = 0
  let total: number | undefined
  return {
    update({ progress, total: of, message }) {
      if (!process.stderr.isTTY) {
        process.stderr.write(
          `progress ${progress}${of === undefined ? '' : `/${of}`}${message ? ` ${message}` : ''}\n`,
        )
        return
      }
      if (bar === undefined || of !== total) {
        bar?.clear()
        total = of
        shown = 0
        bar = clack.progress({ output: process.stderr, max: of ?? SIZE, size: SIZE, withGuide: false })
        bar.start(message ?? 'working')
      }
      const target = of === undefined ? Math.min(SIZE, shown + 1) : Math.min(progress, of)
      if (target > shown) {
        bar.advance(target - shown, message)
        shown = target
      } else if (message) bar.message(message)
    },
    pause() {
      bar?.clear()
      bar = undefined
    },
    end() {
      // A bar that reached its total says so; one that did not (or a spinner, which has none)
      // goes, rather than leave its last frame on the terminal above the result.
      if (total !== undefined && shown >= total) bar?.stop('done')
      else bar?.clear()
      bar = undefined
    },
  }
}
