/**
 * @module body-deadlines
 * Deadlines for request bodies on one timer per listener. Arming and clearing a timer for every
 * request costs more than reading a small body does (about a seventh of a `tools/call`), so
 * bodies in flight are kept in a list in arrival order and a single interval expires the overdue
 * ones. The interval stops on the first tick that finds nothing pending.
 */
import { backgroundInterval } from '../../timers.ts'

/** A body's deadline, until the body is read. */
export interface BodyDeadline {
  /** The body arrived (or failed): its deadline no longer applies. Calling it again does nothing. */
  cancel(): void
}

/** Ticks per timeout: a body is refused between `timeoutMs` and `timeoutMs` plus a tenth of it. */
const TICKS_PER_TIMEOUT = 10
const MAX_TICK_MS = 1_000

/** The bodies pending, oldest first: every one has the same timeout, so this is deadline order. */
interface PendingList {
  first: Pending | undefined
  last: Pending | undefined
}

/**
 * One pending body, linked into its list: adding and cancelling are a few stores, where a `Set`
 * hashes each entry twice and leaves its table to be rebuilt under a steady stream of bodies.
 */
class Pending implements BodyDeadline {
  previous: Pending | undefined = undefined
  next: Pending | undefined = undefined
  #linked = true

  constructor(
    readonly at: number,
    readonly expire: () => void,
    readonly list: PendingList,
  ) {
    const { last } = list
    this.previous = last
    if (last === undefined) list.first = this
    else last.next = this
    list.last = this
  }

  cancel(): void {
    if (!this.#linked) return
    this.#linked = false
    const { previous, next, list } = this
    if (previous === undefined) list.first = next
    else previous.next = next
    if (next === undefined) list.last = previous
    else next.previous = previous
    this.previous = undefined
    this.next = undefined
  }
}

export class BodyDeadlines {
  readonly #pending: PendingList = { first: undefined, last: undefined }
  readonly #tickMs: number
  #timer: NodeJS.Timeout | undefined

  constructor(readonly timeoutMs: number) {
    this.#tickMs = Math.max(1, Math.min(MAX_TICK_MS, Math.ceil(timeoutMs / TICKS_PER_TIMEOUT)))
  }

  /** Calls `expire` once `timeoutMs` have passed, unless the deadline is cancelled first. */
  add(expire: () => void): BodyDeadline {
    const entry = new Pending(Date.now() + this.timeoutMs, expire, this.#pending)
    if (this.#timer === undefined) {
      // An open socket keeps the process alive, not a deadline on it.
      this.#timer = backgroundInterval(() => this.#tick(), this.#tickMs)
    }
    return entry
  }

  #tick(): void {
    if (this.#pending.first === undefined) {
      clearInterval(this.#timer)
      this.#timer = undefined
      return
    }
    const now = Date.now()
    for (
      let entry = this.#pending.first;
      entry !== undefined && entry.at <= now;
      entry = this.#pending.first
    ) {
      entry.cancel()
      entry.expire()
    }
  }
}
