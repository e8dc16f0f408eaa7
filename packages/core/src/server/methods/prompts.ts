/**
 * @module prompts
 * `prompts/list` and `prompts/get`. Unknown prompt or bad arguments are -32602 before the handler
 * runs; a prompt may ask for input like a tool; what it returns is checked before it is sent.
 */
import { TesseraError } from '../../errors.ts'
import type { JsonObject, ResultObject } from '../../protocol/jsonrpc/message.ts'
import type { GetPromptResult } from '../../protocol/modern/results.ts'
import { listed, requireScopes } from '../authorization.ts'
import { AskSignal } from '../mrtr/ask-signal.ts'
import { runInteractive } from '../mrtr/interactive.ts'
import { pageResult, paginate } from '../pagination.ts'
import { checkPromptArgs } from '../registry/prompts.ts'
import { clipped, contextInit, invalidParams, type MethodCall } from './method-call.ts'
import { promptResultFault } from './result-shape.ts'

export function listPrompts({ catalogue, params, exchange }: MethodCall): JsonObject {
  const all = catalogue.prompts.list()
  const [items, hint] = listed(
    catalogue.listOnlyPermitted,
    all,
    () => catalogue.prompts.listFor(exchange.auth),
    catalogue.cache.promptsList,
  )
  return pageResult('prompts', paginate('prompts', items, params.cursor, catalogue.pageSize), hint)
}

export async function getPrompt(call: MethodCall): Promise<ResultObject> {
  const { catalogue, services, params } = call
  const name = params.name
  if (typeof name !== 'string') invalidParams('name must be a string.')
  const prompt = catalogue.prompts.get(name)
  if (prompt === undefined) invalidParams(`unknown prompt '${clipped(name)}'.`)
  requireScopes(prompt.scopes, call.exchange.auth, `Prompt '${prompt.name}'`)
  const args = checkPromptArgs(prompt, params.arguments)
  if (!args.ok) invalidParams(`${args.message}.`)
  const result = await runInteractive<GetPromptResult>({
    services,
    method: 'prompts/get',
    params,
    init: contextInit(call),
    target: `Prompt '${name}'`,
    onRefusal: () => {
      throw new TesseraError(
        'TESSERA_INVALID_PARAMS',
        'Invalid params: the request was declined; no prompt was produced.',
      )
    },
    invoke: async (ctx) => {
      let out: unknown
      try {
        out = await prompt.handler(args.value, ctx)
      } catch (error) {
        if (error instanceof AskSignal || error instanceof TesseraError) throw error
        services.logger.error({ event: 'prompt_failed', prompt: name, err: error }, `Prompt '${name}' threw`)
        throw new TesseraError('TESSERA_INTERNAL', 'Internal error while building the prompt.')
      }
      const fault = promptResultFault(out)
      if (fault !== undefined) {
        services.logger.error(
          { event: 'prompt_result_invalid', prompt: name },
          `Prompt '${name}' returned an invalid result: ${fault}`,
        )
        throw new TesseraError('TESSERA_INTERNAL', 'Internal error while building the prompt.')
      }
      return out as GetPromptResult
    },
  })
  return result
}
