/**
 * @module object-bus
 * The bus inside the Durable Object: what an isolate publishes goes to every subscribed socket of
 * every isolate. Each isolate numbers its messages (the relay's `origin` and `seq`), and each call
 * says the lowest number the isolate still has in flight (`inFlightFrom`): everything below it has
 * reached the object or never will. A call that overtook an earlier one of the same isolate waits
 * for it, so one sender's events reach every subscriber in the order it published them. An
 * earlier call that never comes (its request was torn down) holds the later ones back until the
 * sender's next call says it is no longer in flight, or for `GAP_WAIT_MS` at most.
 */

/** The longest bus message the object fans out; a larger one is refused (a task travels by id when large). */
export const MAX_BUS_MESSAGE_CHARACTERS = 64 * 1024
/** Messages one call may carry. */
export const MAX_BUS_BATCH = 1000
/**
 * How long later messages wait for a missing earlier one of the same sender that may still come.
 * Only a call lost in flight makes anyone wait this long, and the sender's next call ends the wait;
 * a call that is merely slow (a loaded isolate, a busy object) comes well within it.
 */
export const GAP_WAIT_MS = 1000
/** Senders whose order is kept at most; the longest idle one is forgotten beyond it. */
const MAX_SENDERS = 10_000

interface Sender {
  /** The sequence number expected next. */
  next: number
  /** Messages that came before their turn, by sequence number. */
  held: Map<number, string>
  timer: ReturnType<typeof setTimeout> | undefined
}

/** A subscribed socket, as far as the bus uses it. */
export interface BusSocket {
  send(message: string): void
}

export class ObjectBus {
  readonly #sockets: () => readonly BusSocket[]
  readonly #senders = new Map<string, Sender>()

  constructor(sockets: () => readonly BusSocket[]) {
    this.#sockets = sockets
  }

  /**
   * Sends one sender's messages, each in its turn. `inFlightFrom` is the lowest number the sender
   * had in flight when it made this call (its own first number when no earlier call was pending);
   * without it the sender is taken to start at the first number the object hears from it.
   */
  publish(messages: string[], inFlightFrom?: number): void {
    if (!Array.isArray(messages) || messages.length > MAX_BUS_BATCH) {
      throw new RangeError(`a bus call carries an array of at most ${MAX_BUS_BATCH} messages`)
    }
    if (inFlightFrom !== undefined && !Number.isSafeInteger(inFlightFrom)) {
      throw new RangeError('a bus call says what is in flight as an integer')
    }
    for (const message of messages) {
      if (typeof message !== 'string' || message.length > MAX_BUS_MESSAGE_CHARACTERS) {
        throw new RangeError(`a bus message is a string of at most ${MAX_BUS_MESSAGE_CHARACTERS} characters`)
      }
    }
    for (const message of messages) this.#accept(message, inFlightFrom)
  }

  #accept(message: string, inFlightFrom: number | undefined): void {
    const position = positionOf(message)
    if (position === undefined) return this.#send(message)
    const { origin, seq } = position
    let sender = this.#senders.get(origin)
    if (sender === undefined) {
      // A sender first heard of (or heard of again after the object restarted) starts at what it
      // still has in flight: an earlier call of its first ones may yet come.
      sender = { next: Math.min(inFlightFrom ?? seq, seq), held: new Map(), timer: undefined }
      this.#remember(origin, sender)
    } else {
      // Most recently heard of last: the one forgotten first is the longest idle.
      this.#senders.delete(origin)
      this.#senders.set(origin, sender)
    }
    // A call late beyond the wait still goes out: out of turn rather than never.
    if (seq < sender.next) return this.#send(message)
    sender.held.set(seq, message)
    if (inFlightFrom !== undefined && inFlightFrom > sender.next) this.#skipTo(sender, inFlightFrom)
    this.#release(sender)
  }

  /** Holds what is out of turn for `GAP_WAIT_MS` at most, then gives up on the gap before it. */
  #waitForGap(sender: Sender): void {
    sender.timer = setTimeout(() => {
      sender.timer = undefined
      this.#skipTo(sender, Math.min(...sender.held.keys()))
      this.#release(sender)
    }, GAP_WAIT_MS)
  }

  /** Gives up on the numbers below `seq`: what was held below it goes out in order first. */
  #skipTo(sender: Sender, seq: number): void {
    for (const held of [...sender.held.keys()].filter((n) => n < seq).sort((a, b) => a - b)) {
      this.#send(sender.held.get(held)!)
      sender.held.delete(held)
    }
    sender.next = seq
  }

  /** Sends what is now in turn. */
  #release(sender: Sender): void {
    for (
      let message = sender.held.get(sender.next);
      message !== undefined;
      message = sender.held.get(sender.next)
    ) {
      sender.held.delete(sender.next)
      sender.next++
      this.#send(message)
    }
    if (sender.held.size === 0 && sender.timer !== undefined) {
      clearTimeout(sender.timer)
      sender.timer = undefined
    } else if (sender.held.size > 0 && sender.timer === undefined) {
      this.#waitForGap(sender)
    }
  }

  #remember(origin: string, sender: Sender): void {
    this.#senders.set(origin, sender)
    if (this.#senders.size <= MAX_SENDERS) return
    const [oldest, forgotten] = this.#senders.entries().next().value as [string, Sender]
    this.#senders.delete(oldest)
    // What it held goes out now, in order, rather than never.
    if (forgotten.timer !== undefined) clearTimeout(forgotten.timer)
    this.#skipTo(forgotten, Number.POSITIVE_INFINITY)
  }

  #send(message: string): void {
    for (const socket of this.#sockets()) {
      try {
        socket.send(message)
      } catch {
        // A socket closing under the send is one subscriber gone; the others still get the message.
      }
    }
  }
}

/** A message's sender and number, read without trusting the rest of it (subscribers check it). */
function positionOf(message: string): { origin: string; seq: number } | undefined {
  try {
    const { origin, seq } = JSON.parse(message) as { origin?: unknown; seq?: unknown }
    if (typeof origin !== 'string' || origin.length > 64 || !Number.isSafeInteger(seq)) return undefined
    return { origin, seq: seq as number }
  } catch {
    return undefined
  }
}
