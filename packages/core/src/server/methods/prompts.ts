/**
 * @module prompts
 * `prompts/list` and `prompts/get`. Unknown prompt or bad arguments are -32602 before the handler
 * runs; a prompt may ask for input like a tool.
 */
import { TesseraError } from '../../errors.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import { AskSignal } from '../mrtr/input-required.ts'
import { runInteractive } from '../mrtr/interactive.ts'
import { paginate } from '../pagination.ts'
import { checkPromptArgs } from '../registry/prompts.ts'
import type { GetPromptResult } from '../types.ts'
import { contextInit, invalidParams, type MethodCall } from './method-call.ts'

export function listPrompts({ core, params }: MethodCall): JsonObject {
  const page = paginate('prompts', core.prompts.list(), params.cursor, core.pageSize)
  const result: JsonObject = { prompts: page.items }
  if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor
  result.ttlMs = core.cache.promptsList.ttlMs
  result.cacheScope = core.cache.promptsList.cacheScope
  return result
}

export async function getPrompt(call: MethodCall): Promise<JsonObject> {
  const { core, params } = call
  const name = params.name
  if (typeof name !== 'string') invalidParams('name must be a string.')
  const prompt = core.prompts.get(name)
  if (prompt === undefined) invalidParams(`unknown prompt '${name.slice(0, 128)}'.`)
  const args = checkPromptArgs(prompt, params.arguments)
  if (!args.ok) invalidParams(`${args.message}.`)
  const result = await runInteractive<GetPromptResult>({
    core,
    method: 'prompts/get',
    params,
    init: contextInit(call),
    onRefusal: () => {
      throw new TesseraError(
        'TESSERA_INVALID_PARAMS',
        'Invalid params: the request was declined; no prompt was produced.',
      )
    },
    invoke: async (ctx) => {
      try {
        return await prompt.handler(args.value, ctx)
      } catch (error) {
        if (error instanceof AskSignal || error instanceof TesseraError) throw error
        core.logger.error({ event: 'prompt_failed', prompt: name, err: error }, 'prompt handler threw')
        throw new TesseraError('TESSERA_INTERNAL', 'Internal error while building the prompt.')
      }
    },
  })
  return result as unknown as JsonObject
}
