/**
 * @module resources
 * `resources/list`, `resources/templates/list` and `resources/read`. A read tries the static
 * resource, then each matching template; nothing found is -32602 with `data.uri` on 2026-07-28
 * (-32002 on the handshake era), never an empty `contents`.
 */
import { TesseraError } from '../../errors.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import { listed, requireScopes, scopedHint } from '../authorization.ts'
import type { RequestContext } from '../context.ts'
import { AskSignal } from '../mrtr/ask-signal.ts'
import { runInteractive } from '../mrtr/interactive.ts'
import { paginate } from '../pagination.ts'
import type { CacheHint, ReadResourceResult } from '../types.ts'
import { clipped, contextInit, invalidParams, type MethodCall } from './method-call.ts'
import { resourceResultFault } from './result-shape.ts'

export function listResources({ core, params, exchange }: MethodCall): JsonObject {
  const all = core.resources.list()
  const permitted = () => core.resources.listFor(exchange.auth)
  const [items, hint] = listed(core, all, permitted, core.cache.resourcesList)
  return listResult('resources', paginate('resources', items, params.cursor, core.pageSize), hint)
}

export function listResourceTemplates({ core, params, exchange }: MethodCall): JsonObject {
  const all = core.resources.listTemplates()
  const permitted = () => core.resources.listTemplatesFor(exchange.auth)
  const [items, hint] = listed(core, all, permitted, core.cache.resourceTemplatesList)
  return listResult('resourceTemplates', paginate('templates', items, params.cursor, core.pageSize), hint)
}

function listResult(
  key: string,
  page: { items: unknown[]; nextCursor: string | undefined },
  hint: CacheHint,
): JsonObject {
  const result: JsonObject = { [key]: page.items }
  if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor
  result.ttlMs = hint.ttlMs
  result.cacheScope = hint.cacheScope
  return result
}

export async function readResource(call: MethodCall): Promise<JsonObject> {
  const { core, params } = call
  const uri = params.uri
  if (typeof uri !== 'string' || uri === '') invalidParams('uri must be a non-empty string.')
  if (uri.length > 4096) invalidParams('uri is too long.')
  let hint: CacheHint = core.cache.resourcesRead
  const result = await runInteractive<ReadResourceResult | undefined>({
    core,
    method: 'resources/read',
    params,
    init: contextInit(call),
    target: `Resource '${clipped(uri)}'`,
    onRefusal: () => {
      throw new TesseraError(
        'TESSERA_INVALID_PARAMS',
        'Invalid params: the request was declined; nothing was read.',
      )
    },
    invoke: async (ctx) => {
      const found = await resolve(call, uri, ctx)
      if (found?.hint) hint = found.hint
      return found?.result
    },
  })
  if (result === undefined) throw notFound(uri)
  if ('resultType' in result) return result as unknown as JsonObject
  if (result.contents.length === 0) throw notFound(uri)
  return { ...result, ttlMs: hint.ttlMs, cacheScope: hint.cacheScope }
}

type Resolved = { result: ReadResourceResult; hint: CacheHint | undefined }

async function resolve(call: MethodCall, uri: string, ctx: RequestContext): Promise<Resolved | undefined> {
  const resource = call.core.resources.getStatic(uri)
  if (resource) {
    requireScopes(resource.scopes, call.exchange.auth, `Resource '${clipped(uri)}'`)
    const result = await run(call, uri, () => resource.handler(uri, ctx))
    return {
      result: checked(call, uri, result),
      hint: scopedHint(resource.scopes, resource.cache ?? call.core.cache.resourcesRead),
    }
  }
  for (const [template, vars] of call.core.resources.matching(uri)) {
    requireScopes(template.scopes, call.exchange.auth, `Resource '${clipped(uri)}'`)
    const result = await run(call, uri, () => template.handler(uri, vars, ctx))
    if (result !== undefined)
      return {
        result: checked(call, uri, result),
        hint: scopedHint(template.scopes, template.cache ?? call.core.cache.resourcesRead),
      }
  }
  return undefined
}

async function run(call: MethodCall, uri: string, handler: () => unknown): Promise<unknown> {
  try {
    return await handler()
  } catch (error) {
    if (error instanceof AskSignal || error instanceof TesseraError) throw error
    call.core.logger.error({ event: 'resource_failed', uri, err: error }, 'resource handler threw')
    throw new TesseraError('TESSERA_INTERNAL', 'Internal error while reading the resource.')
  }
}

function checked(call: MethodCall, uri: string, result: unknown): ReadResourceResult {
  const fault = resourceResultFault(result)
  if (fault === undefined) return result as ReadResourceResult
  call.core.logger.error(
    { event: 'resource_result_invalid', uri },
    `the handler of resource '${uri}' returned an invalid result: ${fault}`,
  )
  throw new TesseraError('TESSERA_INTERNAL', 'Internal error while reading the resource.')
}

function notFound(uri: string): TesseraError {
  return new TesseraError('TESSERA_RESOURCE_NOT_FOUND', `Resource not found: ${clipped(uri, 256)}`, { uri })
}
