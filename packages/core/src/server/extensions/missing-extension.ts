/**
 * @module missing-extension
 * What a request that needs an extension it did not declare is told.
 */
import { TesseraError } from '../../errors.ts'

/** -32021 naming extension `id` in `requiredCapabilities`; `what` says what needed it. */
export function missingExtension(id: string, what: string): TesseraError {
  return new TesseraError(
    'TESSERA_MISSING_CAPABILITY',
    `Missing required client capability: ${what}; declare the ${id} extension.`,
    { requiredCapabilities: { extensions: { [id]: {} } } },
  )
}
