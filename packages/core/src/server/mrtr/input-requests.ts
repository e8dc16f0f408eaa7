/**
 * @module input-requests
 * What a handler may ask a client for in a multi round-trip request: an elicitation (form or URL
 * mode), an LLM completion (sampling) or the client's roots. Builders return plain wire objects
 * (`{method, params}`, no `jsonrpc`/`id`). A form built from a zod object carries that schema
 * (off the wire) so the answer's content is parsed by it and typed from it.
 */
import type { z } from 'zod'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { InputKind } from '../../protocol/modern/capabilities.ts'
import { elicitationSchemaOf, isZodSchema } from '../../schema/validator.ts'

/** The flat object schema of an elicitation form (primitive fields and string enums only). */
export interface RequestedSchema {
  type: 'object'
  properties: Record<string, JsonObject>
  required?: string[]
  $schema?: string
}

export interface ElicitFormParams {
  mode: 'form'
  message: string
  requestedSchema: RequestedSchema
  _meta?: JsonObject
}

export interface ElicitUrlParams {
  mode: 'url'
  message: string
  url: string
  _meta?: JsonObject
}

export interface SamplingMessage {
  role: 'user' | 'assistant'
  content: JsonObject | JsonObject[]
  _meta?: JsonObject
}

export interface CreateMessageParams {
  messages: SamplingMessage[]
  maxTokens: number
  systemPrompt?: string
  modelPreferences?: JsonObject
  includeContext?: 'none' | 'thisServer' | 'allServers'
  temperature?: number
  stopSequences?: string[]
  metadata?: JsonObject
  tools?: JsonObject[]
  toolChoice?: { mode: 'auto' | 'required' | 'none' }
  _meta?: JsonObject
}

/** The content of an accepted form whose schema is raw JSON Schema. */
export type ElicitationContent = Record<string, string | number | boolean | string[]>

declare const contentType: unique symbol

export interface ElicitationRequest<C = ElicitationContent> {
  readonly method: 'elicitation/create'
  readonly params: ElicitFormParams | ElicitUrlParams
  /** Type only, never on the wire: the content an accepted answer carries. */
  readonly [contentType]?: C
}
export interface SamplingRequest {
  readonly method: 'sampling/createMessage'
  readonly params: CreateMessageParams
}
export interface RootsRequest {
  readonly method: 'roots/list'
  readonly params?: JsonObject
}
export type InputRequest = ElicitationRequest<unknown> | SamplingRequest | RootsRequest

/** The zod schema a form was built from, by request: kept off the wire and out of digests. */
const contentSchemas = new WeakMap<object, z.ZodType>()

export function contentSchemaOf(request: InputRequest): z.ZodType | undefined {
  return contentSchemas.get(request)
}

/**
 * A form elicitation. With `schema` (a zod object of primitive fields) the form is generated
 * from it and an accepted answer's content is parsed by it; with `requestedSchema` the form is
 * sent as written and the content is checked for its required fields.
 * @example
 * const answer = await ctx.ask('confirm', elicitForm({ message: 'Roll back?', schema: z.object({ confirm: z.boolean() }) }))
 * if (answer.action === 'accept' && answer.content.confirm) rollBack()
 */
export function elicitForm<S extends z.ZodObject>(params: {
  message: string
  schema: S
  _meta?: JsonObject
}): ElicitationRequest<z.output<S>>
export function elicitForm(params: {
  message: string
  requestedSchema: RequestedSchema
  _meta?: JsonObject
}): ElicitationRequest
export function elicitForm(params: {
  message: string
  schema?: z.ZodObject
  requestedSchema?: RequestedSchema
  _meta?: JsonObject
}): ElicitationRequest<unknown> {
  if (typeof params?.message !== 'string') throw new TypeError('elicitForm needs a message.')
  const { schema, requestedSchema, ...rest } = params
  if (schema !== undefined) {
    if (!isZodSchema(schema)) throw new TypeError('elicitForm: schema must be a zod v4 object schema.')
    const request = {
      method: 'elicitation/create' as const,
      params: {
        mode: 'form' as const,
        ...rest,
        requestedSchema: elicitationSchemaOf(schema) as unknown as RequestedSchema,
      },
    }
    contentSchemas.set(request, schema)
    return request
  }
  if (requestedSchema?.type !== 'object' || typeof requestedSchema.properties !== 'object') {
    throw new TypeError('elicitForm needs a zod `schema` or a `requestedSchema` of type "object".')
  }
  return { method: 'elicitation/create', params: { mode: 'form', ...rest, requestedSchema } }
}

/** A URL-mode elicitation: the client opens `url` (an absolute URL) for the user. */
export function elicitUrl(params: Omit<ElicitUrlParams, 'mode'>): ElicitationRequest<Record<string, never>> {
  let parsed: URL
  try {
    parsed = new URL(params.url)
  } catch {
    throw new TypeError(`elicitUrl needs an absolute URL, got '${String(params?.url)}'.`)
  }
  return { method: 'elicitation/create', params: { mode: 'url', ...params, url: parsed.href } }
}

/** An LLM completion from the client (sampling). */
export function createMessage(params: CreateMessageParams): SamplingRequest {
  if (!Array.isArray(params?.messages) || !Number.isSafeInteger(params.maxTokens)) {
    throw new TypeError('createMessage needs messages and an integer maxTokens.')
  }
  return { method: 'sampling/createMessage', params }
}

/** The client's roots. */
export function listRoots(): RootsRequest {
  return { method: 'roots/list' }
}

/** The client capabilities one input request needs. */
export function kindsOf(request: InputRequest): InputKind[] {
  switch (request.method) {
    case 'elicitation/create':
      return [request.params.mode === 'url' ? 'elicitation-url' : 'elicitation-form']
    case 'sampling/createMessage':
      return request.params.tools !== undefined || request.params.toolChoice !== undefined
        ? ['sampling', 'sampling-tools']
        : ['sampling']
    case 'roots/list':
      return ['roots']
  }
}

/** Refuses an ask that could not be put on the wire, naming its key. */
export function assertInputRequest(key: string, request: InputRequest): void {
  if (typeof key !== 'string' || key === '' || key.length > 128) {
    throw new TypeError(`Input request key '${String(key)}' must be 1-128 characters.`)
  }
  const method = (request as { method?: unknown } | undefined)?.method
  if (method !== 'elicitation/create' && method !== 'sampling/createMessage' && method !== 'roots/list') {
    throw new TypeError(
      `Input request '${key}' has an unknown method '${String(method)}': build it with elicitForm, elicitUrl, createMessage or listRoots.`,
    )
  }
}
