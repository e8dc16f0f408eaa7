/**
 * @module types
 * The public shapes of the server API: what a tool, resource, template or prompt is registered
 * with, and what its handler returns. Wire results are plain JSON objects; Tessera adds
 * `resultType`, cache hints and `serverInfo` itself.
 */
import type { z } from 'zod'
import type { JsonObject } from '../protocol/jsonrpc/message.ts'
import type { Implementation } from '../protocol/modern/request-meta.ts'
import type { JsonSchema, SchemaInput } from '../schema/validator.ts'
import type { RequestContext } from './context.ts'

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

export type Awaitable<T> = T | Promise<T>

/** The arguments a tool handler receives: the parsed output of a zod `input`, else a plain object. */
export type ToolArguments<S> = S extends z.ZodType ? z.output<S> : Record<string, unknown>

/**
 * What a tool handler returns. Without `output`: text or a result. With a zod `output`:
 * a result whose `structuredContent` has the schema's type, or a failed result (`isError: true`).
 */
export type ToolResult<O> = [O] extends [undefined]
  ? CallToolResult | string
  : O extends z.ZodType
    ?
        | (CallToolResult & { structuredContent: z.input<O>; isError?: false })
        | (CallToolResult & { isError: true })
    : CallToolResult

export type ToolHandler<S = undefined, O = undefined> = (
  args: ToolArguments<S>,
  ctx: RequestContext,
) => Awaitable<ToolResult<O>>

export interface ToolConfig<
  S extends SchemaInput | undefined = SchemaInput | undefined,
  O extends SchemaInput | undefined = SchemaInput | undefined,
> {
  title?: string
  description: string
  /** A zod object schema or a raw JSON Schema with `type: "object"`; omitted means no parameters. */
  input?: S
  /** Structured output schema (`type: "object"`); `structuredContent` is validated against it. */
  output?: O
  annotations?: ToolAnnotations
  icons?: Icon[]
  /** Consume each answered requestState at most once (see the single-use guide). */
  singleUse?: boolean
  /** Scopes a caller must hold to use this (all of them); a caller without them gets 403. */
  scopes?: readonly string[]
  /**
   * Runs as a task (the tasks extension of 2026-07-28) for a client that declared it: the client
   * gets a task id at once and polls, answers questions and cancels through `tasks/*`.
   * `'optional'`: a task for such a client, synchronous for any other. `'required'`: only as a
   * task; a 2026-07-28 client without the extension gets -32021 (a 2025-11-25 session, where
   * tasks do not exist, is answered synchronously). An object says more (see `ToolTaskOptions`).
   */
  task?: 'optional' | 'required' | ToolTaskOptions<S>
  /**
   * Records this tool's argument values (`gen_ai.tool.call.arguments`) and the result of a call
   * answered in its request (`gen_ai.tool.call.result`) on the request's span, as JSON cut at
   * 8 KiB. Off by default: arguments and results may be personal or secret, and nothing else
   * Tessera records carries a value a client sent.
   */
  trace?: ToolTraceOptions
  _meta?: JsonObject
}

export interface ToolTraceOptions {
  arguments?: boolean
  result?: boolean
}

export interface ToolTaskOptions<S extends SchemaInput | undefined = SchemaInput | undefined> {
  support: 'optional' | 'required'
  /** With `support: 'optional'` only: decides per call; false runs this call synchronously. */
  when?: (args: ToolArguments<S>) => boolean
  /**
   * `'call'` (default): the task starts before the handler runs, and every question it asks is
   * answered through `tasks/update`. `'handler'`: the handler runs in the request until it calls
   * `ctx.startTask()`, so the questions above that line are answered in ordinary rounds first.
   */
  start?: 'call' | 'handler'
  /** How long the task is kept after its last change (default: the server's `tasks.ttlMs`); null: always. */
  ttlMs?: number | null
  /** The polling interval clients are told (default: the server's `tasks.pollIntervalMs`). */
  pollIntervalMs?: number
}

export interface Icon {
  src: string
  mimeType?: string
  sizes?: string[]
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
  /** Scopes a caller must hold to use this (all of them); a caller without them gets 403. */
  scopes?: readonly string[]
  _meta?: JsonObject
}

export type ResourceHandler = (uri: string, ctx: RequestContext) => Awaitable<ReadResourceResult>

/** Returns undefined for a URI the template matches but that names nothing. */
export type TemplateHandler = (
  uri: string,
  variables: Record<string, string>,
  ctx: RequestContext,
) => Awaitable<ReadResourceResult | undefined>

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

/** A zod object of string fields, or an explicit argument list. */
export type PromptArgumentsInput = z.ZodObject | readonly PromptArgument[]

/**
 * The arguments a prompt handler receives: the parsed output of a zod object, or one string per
 * listed argument (possibly undefined unless it is `required: true`).
 */
export type PromptArguments<A> = A extends z.ZodObject
  ? z.output<A>
  : A extends readonly PromptArgument[]
    ? { [P in A[number] as P['name']]: P['required'] extends true ? string : string | undefined }
    : Record<string, never>

export interface PromptConfig<A extends PromptArgumentsInput | undefined = PromptArgumentsInput | undefined> {
  title?: string
  description: string
  /** Prompt arguments arrive as strings: a zod object of string fields, or an explicit list. */
  args?: A
  complete?: Record<string, Completer>
  icons?: Icon[]
  /** Scopes a caller must hold to use this (all of them); a caller without them gets 403. */
  scopes?: readonly string[]
  _meta?: JsonObject
}

export type PromptHandler<A = undefined> = (
  args: PromptArguments<A>,
  ctx: RequestContext,
) => Awaitable<GetPromptResult>

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
