/**
 * @module timers
 * Timers that must not keep a process alive: a deadline, a lease's renewal, a keep-alive. Node,
 * Bun and Deno give a timer `unref`; a Worker's timers hold nothing open and have none, so there
 * the call does nothing.
 */

/** `setTimeout` that lets the process exit while it waits. */
export function backgroundTimeout(callback: () => void, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(callback, ms)
  unref(timer)
  return timer
}

/** `setInterval` that lets the process exit while it repeats. */
export function backgroundInterval(callback: () => void, ms: number): ReturnType<typeof setInterval> {
  const timer = setInterval(callback, ms)
  unref(timer)
  return timer
}

function unref(timer: ReturnType<typeof setTimeout>): void {
  ;(timer as { unref?: () => void }).unref?.()
}
