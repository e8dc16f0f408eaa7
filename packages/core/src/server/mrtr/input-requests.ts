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
import type {
  CreateMessageParams,
  ElicitationRequest,
  ElicitUrlParams,
  InputRequest,
  RequestedSchema,
  RootsRequest,
  SamplingRequest,
} from '../../protocol/modern/input-requests.ts'
import { elicitationFormOf, isZodSchema } from '../../schema/validator.ts'
import { type CanonicalTexts, canonicalJson } from '../../security/request-state/canonical-json.ts'

/**
 * The canonical texts of the frozen form schemas `elicitForm` made: a question's digest writes
 * its form as this text instead of walking it again on every ask.
 */
export const formTexts: CanonicalTexts = new WeakMap()

/** The zod schema a form was built from, by request: kept off the wire and out of digests. */
const contentSchemas = new WeakMap<object, z.ZodType>()

export function contentSchemaOf(request: InputRequest): z.ZodType | undefined {
  return contentSchemas.get(request)
}

/**
 * A form elicitation. With `schema` (a zod object of primitive fields) the form is generated
 * from it and an accepted answer's content is parsed by it; with `requestedSchema` the form is
 * sent as written and the content is checked for its required fields. A schema whose fields never
 * change is best built once, like a tool's input: the handler runs again on every round, and a
 * zod object built inside it is built on each run (a form converts to JSON Schema once per shape
 * either way).
 * @example
 * ```ts
 * import { createServer, elicitForm } from '@tessera/core'
 * import { z } from 'zod'
 *
 * const Confirmation = z.object({ confirm: z.boolean() })
 * const app = createServer({ name: 'ops', version: '1.0.0' })
 * app.tool('rollback', { description: 'Rolls a service back', input: z.object({ service: z.string() }) },
 *   async ({ service }, ctx) => {
 *     const answer = await ctx.ask('confirm', elicitForm({ message: `Roll ${service} back?`, schema: Confirmation }))
 *     if (answer.action !== 'accept' || !answer.content.confirm) return 'Nothing was done.'
 *     return `${service} rolled back.`
 *   })
 * ```
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
    const form = elicitationFormOf(schema)
    if (!formTexts.has(form.requestedSchema))
      formTexts.set(form.requestedSchema, canonicalJson(form.requestedSchema))
    const request = {
      method: 'elicitation/create' as const,
      params: { mode: 'form' as const, ...rest, requestedSchema: form.requestedSchema },
    }
    contentSchemas.set(request, form.schema)
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
