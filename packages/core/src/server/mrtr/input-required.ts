/**
 * @module input-required
 * The value a handler returns to end a round and ask the client for input (explicit style), and
 * the signal the await style throws when a question has no recorded answer yet. Both become one
 * `InputRequiredResult` in the pipeline, with a sealed `requestState`.
 */
import { assertInputRequest, type InputRequest } from './input-requests.ts'

export class InputRequired {
  readonly requests: Readonly<Record<string, InputRequest>>
  /** JSON state the handler wants back on the next round (sealed and bound like everything else). */
  readonly state: unknown

  constructor(requests: Record<string, InputRequest>, state?: unknown) {
    for (const [key, request] of Object.entries(requests)) assertInputRequest(key, request)
    this.requests = requests
    this.state = state
  }
}

/**
 * Thrown by `await ctx.ask(…)` when the answer is not there yet. Handlers must let it propagate:
 * catching it would swallow the round. It carries no stack because it is control flow.
 */
export class AskSignal {
  constructor(readonly requests: Record<string, InputRequest>) {}
}
