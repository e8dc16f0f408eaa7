/**
 * @module types
 * The public shapes of the server API: what a tool, resource, template or prompt is registered
 * with, and what its handler returns. Wire results are plain JSON objects; Tessera adds
 * `resultType`, cache hints and `serverInfo` itself.
 */

import type { z } from 'zod'
import type { JsonObject } from '../protocol/jsonrpc/message.ts'
import type { Implementation } from '../protocol/modern/request-meta.ts'
import type {
  Annotations,
  CallToolResult,
  GetPromptResult,
  Icon,
  ReadResourceResult,
} from '../protocol/modern/results.ts'
import type { JsonSchema, SchemaInput } from '../schema/validator.ts'
import type { RequestContext } from './context.ts'
import type {
  ExtensionPromptOptions,
  ExtensionResourceOptions,
  ExtensionToolOptions,
} from './extensions/extension-options.ts'
import type { CallLimits } from './limits/call-limits.ts'
import type { RateLimit } from './rate-limits/rate-limits.ts'

/** Who may reuse a cached result: `public`, any client; `private`, only the caller it was sent to. */
export type CacheScope = 'public' | 'private'
/** How long a cacheable result may be reused (`ttlMs`; 0: not at all) and by whom (`cacheScope`). */
export interface CacheHint {
  ttlMs: number
  cacheScope: CacheScope
}

/**
 * Hints for the client about how a tool behaves (read-only, destructive, idempotent, reaching an
 * open world) and a title to show. Hints only: Tessera sends them as they are and enforces none.
 */
export interface ToolAnnotations {
  title?: string
  readOnlyHint?: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint?: boolean
}

/** A value, or a promise of one: what a handler may return. */
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

/**
 * What a tool runs: its arguments (parsed by `input` when that is a zod schema) and the
 * request's `ctx`; returns text or a result (`ToolResult`), or a promise of one.
 */
export type ToolHandler<S = undefined, O = undefined> = (
  args: ToolArguments<S>,
  ctx: RequestContext,
) => Awaitable<ToolResult<O>>

/**
 * What a tool is registered with: its description for the model, its input and output schemas,
 * and how it may be called (the scopes it needs, single use, as a task, traced).
 *
 * @example
 * ```ts
 * import { createServer } from '@tessera/core'
 * import { z } from 'zod'
 *
 * const app = createServer({ name: 'ops', version: '1.0.0' })
 * app.tool(
 *   'restart',
 *   {
 *     description: 'Restarts a service',
 *     input: z.object({ service: z.string() }),
 *     output: z.object({ restarted: z.boolean() }),
 *     annotations: { destructiveHint: false, idempotentHint: true },
 *     scopes: ['ops:write'],
 *   },
 *   async ({ service }) => ({
 *     content: [{ type: 'text', text: `${service} restarted.` }],
 *     structuredContent: { restarted: true },
 *   }),
 * )
 * ```
 */
export interface ToolConfig<
  S extends SchemaInput | undefined = SchemaInput | undefined,
  O extends SchemaInput | undefined = SchemaInput | undefined,
> extends ExtensionToolOptions {
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
  /**
   * What one call may take and give, over the server's `limits`: the shape of its arguments, the
   * size of its result, its deadline (see `CallLimits`).
   */
  limits?: CallLimits
  /**
   * How often one caller may call it (a token bucket, kept in `stores.rateLimits`), besides the
   * server's `rateLimits`; over it, 429 with `Retry-After`.
   */
  rateLimit?: RateLimit
  _meta?: JsonObject
}

/** What a traced tool records on its request's span (`ToolConfig.trace`); nothing unless asked. */
export interface ToolTraceOptions {
  /** Its argument values, as `gen_ai.tool.call.arguments`. */
  arguments?: boolean
  /** The result of a call answered in its request, as `gen_ai.tool.call.result`. */
  result?: boolean
}

/**
 * How a tool runs as a task, said in full (`ToolConfig.task`): whether tasks are optional or
 * required, which calls become one, where the task starts, and how long it is kept and polled.
 */
export interface ToolTaskOptions<S extends SchemaInput | undefined = SchemaInput | undefined> {
  /** As `ToolConfig.task`'s short forms: `'optional'` or `'required'`. */
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

/**
 * What a resource is registered with: its name and description for the client, its MIME type and
 * size, a cache hint of its own, and the scopes a caller needs.
 */
export interface ResourceConfig extends ExtensionResourceOptions {
  /** The resource's name in `resources/list`. */
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

/** Reads a resource: its URI and the request's `ctx` in, its contents out. */
export type ResourceHandler = (uri: string, ctx: RequestContext) => Awaitable<ReadResourceResult>

/** Returns undefined for a URI the template matches but that names nothing. */
export type TemplateHandler = (
  uri: string,
  variables: Record<string, string>,
  ctx: RequestContext,
) => Awaitable<ReadResourceResult | undefined>

/**
 * Completes one prompt argument or template variable (`completion/complete`): given what has been
 * typed so far (`value`), returns the candidates; the first 100 are sent, with the total.
 */
export type Completer = (value: string, context: CompletionContext) => Awaitable<string[]>
/** What a completer knows besides the value being typed. */
export interface CompletionContext {
  /** The other arguments or variables the client has filled in, by name. */
  arguments: Record<string, string>
  /** The completion request's context: its caller is `ctx.auth`. */
  ctx: RequestContext
}

/** What a resource template is registered with: a resource's settings, and completion of its variables. */
export interface TemplateConfig extends ResourceConfig {
  /** Completion of template variables, keyed by variable name. */
  complete?: Record<string, Completer>
}

/** One argument of a prompt whose arguments are listed rather than given as a zod object. */
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

/**
 * What a prompt is registered with: its description, its arguments (a zod object of strings, or
 * a list), completion of them, and the scopes a caller needs.
 */
export interface PromptConfig<A extends PromptArgumentsInput | undefined = PromptArgumentsInput | undefined>
  extends ExtensionPromptOptions {
  title?: string
  description: string
  /** Prompt arguments arrive as strings: a zod object of string fields, or an explicit list. */
  args?: A
  /** Completion of arguments, keyed by argument name. */
  complete?: Record<string, Completer>
  icons?: Icon[]
  /** Scopes a caller must hold to use this (all of them); a caller without them gets 403. */
  scopes?: readonly string[]
  _meta?: JsonObject
}

/**
 * Builds a prompt's messages from its arguments (parsed by the zod object, or one string per
 * listed argument) and the request's `ctx`.
 */
export type PromptHandler<A = undefined> = (
  args: PromptArguments<A>,
  ctx: RequestContext,
) => Awaitable<GetPromptResult>

/**
 * The server's cache hints (`ServerOptions.cache`), one per kind of cacheable result, each falling
 * back to `default`; without either, a result is not cached (`ttlMs: 0`, `private`).
 */
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
