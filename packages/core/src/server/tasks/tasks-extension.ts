/**
 * @module tasks-extension
 * The negotiation of the tasks extension: what a request lacking it is told.
 */
import { TesseraError } from '../../errors.ts'
import { TASKS_EXTENSION } from '../../protocol/modern/vocabulary.ts'

/** -32021 naming the extension, for a request that needs it and did not declare it. */
export function missingTasksExtension(what: string): TesseraError {
  return new TesseraError(
    'TESSERA_MISSING_CAPABILITY',
    `Missing required client capability: ${what}; declare the ${TASKS_EXTENSION} extension.`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  )
}
