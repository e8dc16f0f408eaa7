/**
 * @module state-refusals
 * Why a requestState was refused, as the server counts it: the codec's reasons and the server's
 * own. Metrics and `stateMetrics` name a reason only from this fixed set; anything else is
 * `_OTHER`, so a caller cannot mint new metric series.
 */
import type { StateRefusal } from '../security/request-state/codec.ts'

export type StateRefusalReason = StateRefusal | 'no-stable-principal' | 'store-epoch'

// A record keyed by the union: a reason added to the type without a label here fails to compile.
const REFUSALS: Readonly<Record<StateRefusalReason, true>> = {
  malformed: true,
  'unknown-key': true,
  mac: true,
  expired: true,
  'not-yet-valid': true,
  binding: true,
  'no-stable-principal': true,
  'store-epoch': true,
}

/** A refusal reason as metrics and `stateMetrics` count it: one of a fixed set, else `_OTHER`. */
export function refusalLabel(reason: string): string {
  return Object.hasOwn(REFUSALS, reason) ? reason : '_OTHER'
}
