/**
 * @module ask-checks
 * The two checks on a handler's asks that hold in ordinary rounds and inside tasks alike: never
 * ask for input of a kind the client did not declare, and never let a handler swallow its ask.
 */
import { TesseraError } from '../../errors.ts'
import {
  type ClientCapabilities,
  declares,
  type InputKind,
  requiredCapabilitiesFor,
} from '../../protocol/modern/capabilities.ts'
import type { InputRequest } from '../../protocol/modern/input-requests.ts'
import { kindsOf } from './input-requests.ts'

/** Refuses (-32021) to ask for input of a kind the client did not declare it can give. */
export function assertDeclared(
  capabilities: ClientCapabilities,
  requests: Readonly<Record<string, InputRequest>>,
): void {
  const missing = new Set<InputKind>()
  for (const request of Object.values(requests)) {
    for (const kind of kindsOf(request)) {
      if (!declares(capabilities, kind)) missing.add(kind)
    }
  }
  if (missing.size === 0) return
  throw new TesseraError(
    'TESSERA_MISSING_CAPABILITY',
    'Missing required client capability: the server needs input this client did not declare it can provide.',
    { requiredCapabilities: requiredCapabilitiesFor(missing) },
  )
}

/** A handler caught the signal of its own ask and returned: what it returned answers nothing. */
export function swallowedAsk(target: string): Error {
  const error = new Error(
    `${target} caught the signal thrown by ctx.ask() and returned instead; let it propagate (rethrow it from any catch).`,
  )
  error.name = 'SwallowedAskError'
  return error
}
