/**
 * @module ask-signal
 * What `await ctx.ask(…)` throws when the answer is not there yet: it ends the round, and the
 * pipeline turns it into one `InputRequiredResult` with a sealed `requestState`. Handlers must
 * let it propagate; one that catches it and returns something else is reported as a failure that
 * names the handler (see `RoundState.pendingAsk`). It carries no stack because it is control flow.
 */
import type { InputRequest } from '../../protocol/modern/input-requests.ts'

export class AskSignal {
  readonly name = 'AskSignal'
  readonly message =
    'ctx.ask() ended this round to ask the client; let this signal propagate (rethrow it from any catch).'

  constructor(readonly requests: Readonly<Record<string, InputRequest>>) {}

  toString(): string {
    return `${this.name}: ${this.message}`
  }
}
