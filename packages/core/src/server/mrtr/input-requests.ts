/**
 * @module input-requests
 * What a handler may ask a client for in a multi round-trip request: an elicitation (form or URL
 * mode), an LLM completion (sampling) or the client's roots. Builders return plain wire objects
 * (`{method, params}`, no `jsonrpc`/`id`), and `kindOf` tells which client capability each needs.
 */
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { InputKind } from '../../protocol/modern/capabilities.ts'

export interface ElicitFormParams {
  mode?: 'form'
  message: string
  requestedSchema: {
    type: 'object'
    properties: Record<string, JsonObject>
    required?: string[]
    $schema?: string
  }
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

export interface ElicitationRequest {
  method: 'elicitation/create'
  params: ElicitFormParams | ElicitUrlParams
}
export interface SamplingRequest {
  method: 'sampling/createMessage'
  params: CreateMessageParams
}
export interface RootsRequest {
  method: 'roots/list'
  params?: JsonObject
}
export type InputRequest = ElicitationRequest | SamplingRequest | RootsRequest

export function elicitForm(params: Omit<ElicitFormParams, 'mode'>): ElicitationRequest {
  return { method: 'elicitation/create', params: { mode: 'form', ...params } }
}

export function elicitUrl(params: Omit<ElicitUrlParams, 'mode'>): ElicitationRequest {
  let parsed: URL
  try {
    parsed = new URL(params.url)
  } catch {
    throw new TypeError(`elicitUrl needs an absolute URL, got '${params.url}'.`)
  }
  return { method: 'elicitation/create', params: { mode: 'url', ...params, url: parsed.href } }
}

export function sampling(params: CreateMessageParams): SamplingRequest {
  return { method: 'sampling/createMessage', params }
}

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

export function assertInputRequest(key: string, request: InputRequest): void {
  if (key === '' || key.length > 128)
    throw new TypeError(`Input request key '${key}' must be 1-128 characters.`)
  const method = (request as { method?: unknown }).method
  if (method !== 'elicitation/create' && method !== 'sampling/createMessage' && method !== 'roots/list') {
    throw new TypeError(`Input request '${key}' has an unknown method '${String(method)}'.`)
  }
}
