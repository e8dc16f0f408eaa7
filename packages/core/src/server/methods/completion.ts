/**
 * @module completion
 * `completion/complete` for prompt arguments and resource-template variables; at most 100 values.
 */
import { TesseraError } from '../../errors.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import { requireScopes } from '../authorization.ts'
import { RequestContext } from '../context.ts'
import { RoundState } from '../mrtr/round-state.ts'
import type { Completer } from '../types.ts'
import { clipped, contextInit, invalidParams, type MethodCall } from './method-call.ts'

const MAX_VALUES = 100

export async function completeArgument(call: MethodCall): Promise<JsonObject> {
  const { params } = call
  const ref = params.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined
  const argument = params.argument as { name?: unknown; value?: unknown } | undefined
  if (typeof ref !== 'object' || ref === null) invalidParams('ref must be an object.')
  if (typeof argument?.name !== 'string' || typeof argument.value !== 'string') {
    invalidParams('argument must have a string name and value.')
  }
  const completer = findCompleter(call, ref, argument.name)
  const context = params.context as { arguments?: Record<string, string> } | undefined
  const ctx = new RequestContext(contextInit(call), RoundState.empty())
  let values: unknown
  try {
    values = completer ? await completer(argument.value, { arguments: context?.arguments ?? {}, ctx }) : []
  } catch (error) {
    call.services.logger.error(
      { event: 'completion_failed', argument: argument.name, err: error },
      'completer threw',
    )
    throw new TesseraError('TESSERA_INTERNAL', 'Internal error while completing.')
  }
  if (!Array.isArray(values)) {
    call.services.logger.error(
      { event: 'completion_invalid', argument: argument.name },
      `the completer of '${argument.name}' returned something other than an array of strings`,
    )
    throw new TesseraError('TESSERA_INTERNAL', 'Internal error while completing.')
  }
  const all = values.filter((v): v is string => typeof v === 'string')
  return {
    completion: { values: all.slice(0, MAX_VALUES), total: all.length, hasMore: all.length > MAX_VALUES },
  }
}

function findCompleter(
  call: MethodCall,
  ref: { type?: unknown; name?: unknown; uri?: unknown },
  argument: string,
): Completer | undefined {
  if (ref.type === 'ref/prompt') {
    if (typeof ref.name !== 'string') invalidParams('ref.name must be a string.')
    const prompt = call.catalogue.prompts.get(ref.name)
    if (!prompt) invalidParams(`unknown prompt '${clipped(ref.name)}'.`)
    // Completions reveal values: they need what the prompt itself needs.
    requireScopes(prompt.scopes, call.exchange.auth, `Prompt '${prompt.name}'`)
    return prompt.complete?.[argument]
  }
  if (ref.type === 'ref/resource') {
    if (typeof ref.uri !== 'string') invalidParams('ref.uri must be a string.')
    const template = call.catalogue.resources.getTemplate(ref.uri)
    if (!template && !call.catalogue.resources.getStatic(ref.uri))
      invalidParams('unknown resource reference.')
    if (template)
      requireScopes(template.scopes, call.exchange.auth, `Resource template '${clipped(ref.uri)}'`)
    return template?.complete?.[argument]
  }
  return invalidParams('ref.type must be "ref/prompt" or "ref/resource".')
}
