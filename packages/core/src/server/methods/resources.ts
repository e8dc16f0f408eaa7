/**
 * @module resources
 * `resources/list`, `resources/templates/list` and `resources/read`. A read tries the static
 * resource, then each matching template; nothing found is -32602 with `data.uri` on 2026-07-28
 * (-32002 on the handshake era), never an empty `contents`.
 */
import { TesseraError } from '../../errors.ts'
import type { JsonObject, ResultObject } from '../../protocol/jsonrpc/message.ts'
import type { ReadResourceResult } from '../../protocol/modern/results.ts'
import { withFields } from '../../with-fields.ts'
import { listed, requireScopes, scopedHint } from '../authorization.ts'
import type { RequestContext } from '../context.ts'
import { AskSignal } from '../mrtr/ask-signal.ts'
import { runInteractive } from '../mrtr/interactive.ts'
import { pageResult, paginate } from '../pagination.ts'
import type { CacheHint } from '../types.ts'
import { clipped, contextInit, invalidParams, type MethodCall } from './method-call.ts'
import { resourceResultFault } from './result-shape.ts'

export function listResources({ catalogue, params, exchange }: MethodCall): JsonObject {
  const all = catalogue.resources.list()
  const permitted = () => catalogue.resources.listFor(exchange.auth)
  const [items, hint] = listed(catalogue.listOnlyPermitted, all, permitted, catalogue.cache.resourcesList)
  return pageResult('resources', paginate('resources', items, params.cursor, catalogue.pageSize), hint)
}

export function listResourceTemplates({ catalogue, params, exchange }: MethodCall): JsonObject {
  const all = catalogue.resources.listTemplates()
  const permitted = () => catalogue.resources.listTemplatesFor(exchange.auth)
  const [items, hint] = listed(
    catalogue.listOnlyPermitted,
    all,
    permitted,
    catalogue.cache.resourceTemplatesList,
  )
  return pageResult(
    'resourceTemplates',
    paginate('templates', items, params.cursor, catalogue.pageSize),
    hint,
  )
}

export async function readResource(call: MethodCall): Promise<ResultObject> {
  const { catalogue, services, params } = call
  const uri = params.uri
  if (typeof uri !== 'string' || uri === '') invalidParams('uri must be a non-empty string.')
  if (uri.length > 4096) invalidParams('uri is too long.')
  let hint: CacheHint = catalogue.cache.resourcesRead
  const result = await runInteractive<ReadResourceResult | undefined>({
    services,
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
  if ('resultType' in result) return result
  if (result.contents.length === 0) throw notFound(uri)
  const read: ReadResourceResult & CacheHint = withFields(result, {
    ttlMs: hint.ttlMs,
    cacheScope: hint.cacheScope,
  })
  return read
}

type Resolved = { result: ReadResourceResult; hint: CacheHint | undefined }

async function resolve(call: MethodCall, uri: string, ctx: RequestContext): Promise<Resolved | undefined> {
  const resource = call.catalogue.resources.getStatic(uri)
  if (resource) {
    requireScopes(resource.scopes, call.exchange.auth, `Resource '${clipped(uri)}'`)
    const result = await run(call, uri, () => resource.handler(uri, ctx))
    return {
      result: checked(call, uri, result),
      hint: scopedHint(resource.scopes, resource.cache ?? call.catalogue.cache.resourcesRead),
    }
  }
  for (const [template, vars] of call.catalogue.resources.matching(uri)) {
    requireScopes(template.scopes, call.exchange.auth, `Resource '${clipped(uri)}'`)
    const result = await run(call, uri, () => template.handler(uri, vars, ctx))
    if (result !== undefined)
      return {
        result: checked(call, uri, result),
        hint: scopedHint(template.scopes, template.cache ?? call.catalogue.cache.resourcesRead),
      }
  }
  return undefined
}

async function run(call: MethodCall, uri: string, handler: () => unknown): Promise<unknown> {
  try {
    return await handler()
  } catch (error) {
    if (error instanceof AskSignal || error instanceof TesseraError) throw error
    call.services.logger.error({ event: 'resource_failed', uri, err: error }, 'resource handler threw')
    throw new TesseraError('TESSERA_INTERNAL', 'Internal error while reading the resource.')
  }
}

function checked(call: MethodCall, uri: string, result: unknown): ReadResourceResult {
  const fault = resourceResultFault(result)
  if (fault === undefined) return result as ReadResourceResult
  call.services.logger.error(
    { event: 'resource_result_invalid', uri },
    `the handler of resource '${uri}' returned an invalid result: ${fault}`,
  )
  throw new TesseraError('TESSERA_INTERNAL', 'Internal error while reading the resource.')
}

function notFound(uri: string): TesseraError {
  return new TesseraError('TESSERA_RESOURCE_NOT_FOUND', `Resource not found: ${clipped(uri, 256)}`, { uri })
}
