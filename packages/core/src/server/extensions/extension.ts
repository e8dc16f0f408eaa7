/**
 * @module extension
 * The contract an extension of the protocol is written against, whether Tessera ships it (tasks,
 * skills, apps) or a third party does: its identifier and the settings it advertises, the methods
 * it adds, the options it adds to tools, resources and prompts (checked when they are
 * registered), and what it registers on the server it is installed in.
 */
import type { Logger } from '../../observation/logger.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import type { Era, RequestingClient } from '../context.ts'
import type { McpServer } from '../mcp-server.ts'
import type { Awaitable } from '../types.ts'

/**
 * An extension of the protocol, installed with `createServer({ extensions: [...] })`. Every member
 * but `id` is optional: an extension may only add methods, only add options to definitions, or
 * only register resources.
 *
 * @example
 * ```ts
 * import { createServer, TesseraError } from '@tessera/core'
 * import type { Extension } from '@tessera/core/extension'
 *
 * const echo: Extension = {
 *   id: 'com.example/echo',
 *   methods: {
 *     'echo/say': {
 *       run: ({ params }) => {
 *         if (typeof params.text !== 'string')
 *           throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: text must be a string.')
 *         return { text: params.text }
 *       },
 *     },
 *   },
 * }
 * const server = createServer({ name: 'echo', version: '1.0.0', extensions: [echo] })
 * ```
 */
export interface Extension {
  /**
   * `{vendor-prefix}/{name}`, the key of its entry in `capabilities.extensions`, such as
   * `io.modelcontextprotocol/tasks` or `com.example/cost`.
   */
  readonly id: string
  /** The revisions it is served in (default both): in any other it is not advertised and its methods do not exist. */
  readonly eras?: readonly Era[]
  /**
   * The settings advertised under `capabilities.extensions[id]` (in `server/discover` and the
   * 2025-11-25 `initialize` result): undefined says it is not offered now, and its methods then
   * answer -32601 like unknown ones. Asked when first needed and again only after a registration
   * changed what the definitions carry, so it must follow from `usage` and what the extension was
   * made with. Default: `{}`, always offered.
   */
  settings?(usage: ExtensionUsage): JsonObject | undefined
  /** The methods it adds, by name; a name the core or another extension serves is refused. */
  readonly methods?: Readonly<Record<string, ExtensionMethod>>
  /** What it adds to tool definitions. */
  readonly tools?: DefinitionOptions
  /** What it adds to resource and resource template definitions. */
  readonly resources?: DefinitionOptions
  /** What it adds to prompt definitions. */
  readonly prompts?: DefinitionOptions
  /** Called once, when the server is created, to register what it serves (resources, tools). */
  setup?(server: McpServer): void
}

/** How many registered definitions of each kind carry something of the extension now. */
export interface ExtensionUsage {
  readonly tools: number
  /** Resources and resource templates. */
  readonly resources: number
  readonly prompts: number
}

/** What an extension adds to one kind of definition (`Extension.tools`, `.resources`, `.prompts`). */
export interface DefinitionOptions {
  /**
   * The configuration options it adds (`task`, `cost`): accepted beside the core's own, which a
   * misspelled name is not. An option no extension and not the core knows is refused.
   */
  readonly names?: readonly string[]
  /**
   * Reads every definition when it is registered: throws a TypeError that names the definition
   * and the rule when what it adds is wrong (the registration is then refused), and returns what
   * it keeps for the definition, or undefined when the definition does not use it.
   */
  define(definition: Definition): DefinedByExtension | undefined
  /**
   * Whether a tool that carries what `define` kept (`data`) is offered to a request: listed by
   * `tools/list` and callable with `tools/call` (an unknown tool, -32602, otherwise). `declared`
   * says whether the request declared the extension. Default: always. Read for tools.
   */
  visible?(data: unknown, request: { readonly declared: boolean }): boolean
}

/** A definition being registered, as an extension reads it. */
export interface Definition {
  readonly kind: 'tool' | 'resource' | 'template' | 'prompt'
  /** The tool's or prompt's name, the resource's URI, or the template's URI template. */
  readonly name: string
  /** The configuration as the application gave it. */
  readonly config: Readonly<Record<string, unknown>>
  /** How errors name it: `Tool 'deploy'`, `Resource 'ops://runbooks'`. */
  readonly label: string
}

/** What an extension keeps for one definition. */
export interface DefinedByExtension {
  /** Kept for the extension's methods (`ExtensionCall.dataOf`) and the core's own use. */
  readonly data?: unknown
  /** Entries added to the definition's `_meta` where it is listed; a key the application set too is refused. */
  readonly meta?: JsonObject
}

/** One method an extension adds. */
export interface ExtensionMethod {
  /**
   * The params field that `Mcp-Name` mirrors over HTTP (2026-07-28): when the request has it as
   * a string, the header must be present and equal, as for `tools/call`'s `name`.
   */
  readonly nameParam?: string
  /**
   * Refuse a request whose capabilities do not declare the extension: -32021 naming it in
   * `requiredCapabilities` (default false: any client may call it once it is advertised).
   */
  readonly needsDeclaration?: boolean
  /**
   * Serves one request: returns the result (without `resultType`, which is added) or throws a
   * `TesseraError` from the error table (`TESSERA_INVALID_PARAMS` for bad params, -32602). Any
   * other error is an internal error whose message stays in the logs.
   */
  run(call: ExtensionCall): Awaitable<JsonObject>
}

/** What an extension's method is given: the request, who sent it, and the server's settings. */
export interface ExtensionCall {
  readonly method: string
  /** The request's params as sent (never null: `{}` when absent). */
  readonly params: JsonObject
  readonly era: Era
  /** Whether the request's capabilities declare this extension. */
  readonly declared: boolean
  /** What the request's capabilities say under this extension's id; undefined when not declared. */
  readonly clientSettings: JsonObject | undefined
  readonly client: RequestingClient
  /** The authenticated caller, when the transport authenticated one. */
  readonly auth: AuthInfo | undefined
  /** Aborts when the client disconnects or cancels. */
  readonly signal: AbortSignal
  /** Items per page of the server's lists (`ServerOptions.pageSize`). */
  readonly pageSize: number
  /** The server's logger, for the operator. */
  readonly logger: Logger
  /** What this extension's `define` kept for a registered definition; undefined when nothing. */
  dataOf(kind: Definition['kind'], name: string): unknown
  /**
   * Keeps the runtime alive for work that outlives the response (a Worker's `waitUntil`);
   * undefined where the process outlives it anyway.
   */
  readonly waitUntil: ((work: Promise<unknown>) => void) | undefined
}
