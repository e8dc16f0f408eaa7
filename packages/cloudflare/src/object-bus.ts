/**
 * @module object-bus
 * The bus inside the Durable Object: what an isolate publishes goes to every subscribed socket of
 * every isolate. Each isolate numbers its messages (the relay's `origin` and `seq`); a call that
 * overtook an earlier one of the same isolate waits, briefly, for it, so one sender's events reach
 * every subscriber in the order it published them. An earlier call that never comes (its request
 * was torn down) holds the later ones back for `GAP_WAIT_MS` at most.
 */

/** The longest bus message the object fans out; a larger one is refused (a task travels by id when large). */
export const MAX_BUS_MESSAGE_CHARACTERS = 64 * 1024
/** Messages one call may carry. */
export const MAX_BUS_BATCH = 1000
/** How long later messages wait for a missing earlier one of the same sender. */
const GAP_WAIT_MS = 100
/** Senders whose order is kept at most; the longest idle one is forgotten beyond it. */
const MAX_SENDERS = 10_000

interface Sender {
  /** The sequence number expected next. */
  next: number
  /** Messages that came before their turn, by sequence number. */
  held: Map<number, string>
  timer: ReturnType<typeof setTimeout> | undefined
}

export class ObjectBus {
  readonly #sockets: () => WebSocket[]
  readonly #senders = new Map<string, Sender>()

  constructor(sockets: () => WebSocket[]) {
    this.#sockets = sockets
  }

  publish(messages: string[]): void {
    if (!Array.isArray(messages) || messages.length > MAX_BUS_BATCH) {
      throw new RangeError(`a bus call carries an array of at most ${MAX_BUS_BATCH} messages`)
    }
    for (const message of messages) {
      if (typeof message !== 'string' || message.length > MAX_BUS_MESSAGE_CHARACTERS) {
        throw new RangeError(`a bus message is a string of at most ${MAX_BUS_MESSAGE_CHARACTERS} characters`)
      }
    }
    for (const message of messages) this.#accept(message)
  }

  #accept(message: string): void {
    const position = positionOf(message)
    if (position === undefined) return this.#send(message)
    const { origin, seq } = position
    let sender = this.#senders.get(origin)
    if (sender === undefined) {
      // A sender first heard of (or heard of again after the object restarted) starts here.
      sender = { next: seq, held: new Map(), timer: undefined }
      this.#remember(origin, sender)
    } else {
      // Most recently heard of last: the one forgotten first is the longest idle.
      this.#senders.delete(origin)
      this.#senders.set(origin, sender)
    }
    if (seq < sender.next) return this.#send(message)
    sender.held.set(seq, message)
    this.#release(sender)
    if (sender.held.size > 0 && sender.timer === undefined) {
      sender.timer = setTimeout(() => {
        sender.timer = undefined
        sender.next = Math.min(...sender.held.keys())
        this.#release(sender)
      }, GAP_WAIT_MS)
    }
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
    }
  }

  #remember(origin: string, sender: Sender): void {
    this.#senders.set(origin, sender)
    if (this.#senders.size <= MAX_SENDERS) return
    const [oldest, forgotten] = this.#senders.entries().next().value as [string, Sender]
    this.#senders.delete(oldest)
    // What it held goes out now, in order, rather than never.
    for (const seq of [...forgotten.held.keys()].sort((a, b) => a - b)) this.#send(forgotten.held.get(seq)!)
    if (forgotten.timer !== undefined) clearTimeout(forgotten.timer)
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
