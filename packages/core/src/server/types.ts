/**
 * @module types
 * The public shapes of the server API: what a tool, resource, template or prompt is registered
 * with, and what its handler returns. Wire results are plain JSON objects; Tessera adds
 * `resultType`, cache hints and `serverInfo` itself.
 */
import type { z } from 'zod'
import type { JsonObject } from '../protocol/jsonrpc/message.ts'
import type { Implementation } from '../protocol/modern/envelope.ts'
import type { JsonSchema, SchemaInput } from '../schema/validator.ts'
import type { RequestContext } from './context.ts'
import type { InputRequired } from './mrtr/input-required.ts'

export type CacheScope = 'public' | 'private'
export interface CacheHint {
  ttlMs: number
  cacheScope: CacheScope
}

export interface Annotations {
  audience?: Array<'user' | 'assistant'>
  priority?: number
  lastModified?: string
}

export type ContentBlock =
  | { type: 'text'; text: string; annotations?: Annotations; _meta?: JsonObject }
  | { type: 'image'; data: string; mimeType: string; annotations?: Annotations; _meta?: JsonObject }
  | { type: 'audio'; data: string; mimeType: string; annotations?: Annotations; _meta?: JsonObject }
  | { type: 'resource'; resource: ResourceContents; annotations?: Annotations; _meta?: JsonObject }
  | {
      type: 'resource_link'
      uri: string
      name: string
      title?: string
      description?: string
      mimeType?: string
      annotations?: Annotations
      _meta?: JsonObject
    }

export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: JsonObject }
  | { uri: string; mimeType?: string; blob: string; _meta?: JsonObject }

export interface CallToolResult {
  content: ContentBlock[]
  structuredContent?: unknown
  isError?: boolean
  _meta?: JsonObject
}

export interface ReadResourceResult {
  contents: ResourceContents[]
  _meta?: JsonObject
}

export interface PromptMessage {
  role: 'user' | 'assistant'
  content: ContentBlock
}

export interface GetPromptResult {
  description?: string
  messages: PromptMessage[]
  _meta?: JsonObject
}

export interface ToolAnnotations {
  title?: string
  readOnlyHint?: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint?: boolean
}

type Awaitable<T> = T | Promise<T>
type InferInput<S> = S extends z.ZodType ? z.output<S> : Record<string, unknown>

export type ToolHandler<S> = (
  args: InferInput<S>,
  ctx: RequestContext,
) => Awaitable<CallToolResult | InputRequired | string>

export interface ToolConfig<S extends SchemaInput | undefined = SchemaInput | undefined> {
  title?: string
  description: string
  /** A zod object schema or a raw JSON Schema with `type: "object"`; omitted means no parameters. */
  input?: S
  /** Structured output schema; `structuredContent` is validated against it. */
  output?: SchemaInput
  annotations?: ToolAnnotations
  icons?: Array<{ src: string; mimeType?: string; sizes?: string[] }>
  /** Guard the tool's answers with the single-use guard (needs `replay.store` on the server). */
  singleUse?: boolean
  _meta?: JsonObject
}

export interface ResourceConfig {
  name: string
  title?: string
  description?: string
  mimeType?: string
  size?: number
  annotations?: Annotations
  /** Overrides the server's `resources/read` cache hint for this resource. */
  cache?: CacheHint
  _meta?: JsonObject
}

export type ResourceHandler = (
  uri: string,
  ctx: RequestContext,
) => Awaitable<ReadResourceResult | InputRequired>
export type TemplateHandler = (
  uri: string,
  variables: Record<string, string>,
  ctx: RequestContext,
) => Awaitable<ReadResourceResult | InputRequired | undefined>

export type Completer = (value: string, context: CompletionContext) => Awaitable<string[]>
export interface CompletionContext {
  arguments: Record<string, string>
  ctx: RequestContext
}

export interface TemplateConfig extends ResourceConfig {
  /** Completion of template variables, keyed by variable name. */
  complete?: Record<string, Completer>
}

export interface PromptArgument {
  name: string
  title?: string
  description?: string
  required?: boolean
}

export interface PromptConfig {
  title?: string
  description: string
  /** A zod object of string fields, or an explicit argument list. */
  args?: z.ZodObject | PromptArgument[]
  complete?: Record<string, Completer>
  icons?: Array<{ src: string; mimeType?: string; sizes?: string[] }>
  _meta?: JsonObject
}

export type PromptHandler = (
  args: Record<string, string>,
  ctx: RequestContext,
) => Awaitable<GetPromptResult | InputRequired>

export interface CacheHints {
  /** Applies to every cacheable result unless something more specific is set. */
  default?: CacheHint
  discover?: CacheHint
  toolsList?: CacheHint
  promptsList?: CacheHint
  resourcesList?: CacheHint
  resourceTemplatesList?: CacheHint
  resourcesRead?: CacheHint
}

export type { Implementation, JsonSchema, SchemaInput }
