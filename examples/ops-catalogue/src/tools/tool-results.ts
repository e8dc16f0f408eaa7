/**
 * @module tool-results
 * Result shapes shared by the tools. A refusal of the tool's own making (unknown service, a
 * version that is not earlier) is an `isError` result the model can read and act on, not a
 * protocol error, because the call itself was well-formed. An argument named back in it is put on
 * one line and cut short, since the caller chose it.
 */
import type { CallToolResult } from '@tessera/core/protocol'
import { z } from 'zod'
import type { Catalogue } from '../catalogue/catalogue.ts'
import { oneLine } from '../one-line.ts'

export const serviceArgument = z
  .string()
  .min(1)
  .max(64)
  .describe('Service id, e.g. "checkout"; the list is in the ops://catalogue resource.')

export const deploymentShape = z.object({
  id: z.string(),
  seq: z.number().int(),
  service: z.string(),
  kind: z.enum(['deploy', 'rollback']),
  version: z.string(),
  at: z.string(),
  by: z.string(),
  previousVersion: z.string().optional(),
  note: z.string().optional(),
})

/** A refusal the model can read: valid for any tool, whatever its output schema. */
export type ToolFailure = CallToolResult & { isError: true }

export function toolError(text: string): ToolFailure {
  return { content: [{ type: 'text', text }], isError: true }
}

export function unknownService(catalogue: Catalogue, service: string): ToolFailure {
  const shown = oneLine(service, 64)
  return toolError(`Unknown service '${shown}'. Known services: ${catalogue.ids().join(', ')}.`)
}
