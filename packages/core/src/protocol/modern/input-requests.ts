/**
 * @module input-requests
 * The requests a server sends a client for input, as the wire carries them: elicitations (a form
 * or a URL), sampling, and the roots. A 2026-07-28 server returns them in an `InputRequiredResult`;
 * a 2025-11-25 server sends them as requests of its own.
 */
import type { JsonObject } from '../jsonrpc/message.ts'

/** The flat object schema of an elicitation form (primitive fields and string enums only). */
export interface RequestedSchema {
  type: 'object'
  properties: Record<string, JsonObject>
  required?: string[]
  $schema?: string
}

/** The params of a form elicitation: a message and the flat schema of the fields to fill in. */
export interface ElicitFormParams {
  mode: 'form'
  message: string
  requestedSchema: RequestedSchema
  _meta?: JsonObject
}

/** The params of a URL elicitation: a message and the page the user is sent to. */
export interface ElicitUrlParams {
  mode: 'url'
  message: string
  url: string
  _meta?: JsonObject
}

/** One message of a sampling request. */
export interface SamplingMessage {
  role: 'user' | 'assistant'
  content: JsonObject | JsonObject[]
  _meta?: JsonObject
}

/** The params of `sampling/createMessage`: the conversation and how the client's model should answer. */
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

/** A question for the user (`elicitation/create`); `C` types the content of an accepted answer. */
export interface ElicitationRequest<C = ElicitationContent> {
  readonly method: 'elicitation/create'
  readonly params: ElicitFormParams | ElicitUrlParams
  /** Type only, never on the wire: the content an accepted answer carries. */
  readonly [contentType]?: C
}
/** A request for the client's model to produce a message (`sampling/createMessage`). */
export interface SamplingRequest {
  readonly method: 'sampling/createMessage'
  readonly params: CreateMessageParams
}
/** A request for the client's roots (`roots/list`). */
export interface RootsRequest {
  readonly method: 'roots/list'
  readonly params?: JsonObject
}
/** What a handler may ask the client for, across rounds: an elicitation, a sampling or the roots. */
export type InputRequest = ElicitationRequest<unknown> | SamplingRequest | RootsRequest
