/**
 * @module body-deadlines
 * Deadlines for request bodies on one timer per listener. Arming and clearing a timer for every
 * request costs more than reading a small body does (about a seventh of a `tools/call`), so
 * bodies in flight are kept in insertion order and a single interval expires the overdue ones.
 * The interval stops on the first tick that finds nothing pending.
 */
import { backgroundInterval } from '../../timers.ts'

interface Pending {
  readonly at: number
  readonly expire: () => void
}

/** Ticks per timeout: a body is refused between `timeoutMs` and `timeoutMs` plus a tenth of it. */
const TICKS_PER_TIMEOUT = 10
const MAX_TICK_MS = 1_000

export class BodyDeadlines {
  readonly #pending = new Set<Pending>()
  readonly #tickMs: number
  #timer: NodeJS.Timeout | undefined

  constructor(readonly timeoutMs: number) {
    this.#tickMs = Math.max(1, Math.min(MAX_TICK_MS, Math.ceil(timeoutMs / TICKS_PER_TIMEOUT)))
  }

  /** Calls `expire` once `timeoutMs` have passed, unless the returned cancel runs first. */
  add(expire: () => void): () => void {
    const entry: Pending = { at: Date.now() + this.timeoutMs, expire }
    this.#pending.add(entry)
    if (this.#timer === undefined) {
      // An open socket keeps the process alive, not a deadline on it.
      this.#timer = backgroundInterval(() => this.#tick(), this.#tickMs)
    }
    return () => {
      this.#pending.delete(entry)
    }
  }

  #tick(): void {
    if (this.#pending.size === 0) {
      clearInterval(this.#timer)
      this.#timer = undefined
      return
    }
    const now = Date.now()
    // Every entry has the same timeout, so insertion order is deadline order.
    for (const entry of this.#pending) {
      if (entry.at > now) break
      this.#pending.delete(entry)
      entry.expire()
    }
  }
}
