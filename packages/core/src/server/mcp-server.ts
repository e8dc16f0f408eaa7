/**
 * @module mcp-server
 * What `createServer` returns, as applications see it: registration of tools, resources,
 * templates and prompts, the change notices they cause, the requestState metrics, and `close`.
 * What a transport needs of a server is not here but behind its door (`door.ts`).
 */
import type { StateMetrics } from './mrtr/state-service.ts'
import type {
  PromptArgumentsInput,
  PromptConfig,
  PromptHandler,
  ResourceConfig,
  ResourceHandler,
  SchemaInput,
  TemplateConfig,
  TemplateHandler,
  ToolConfig,
  ToolHandler,
} from './types.ts'

/**
 * An MCP server: register what it offers, then serve it with a transport (`listen` or
 * `createFetchHandler` from `@tessera/core/http`, `serveStdio` from `@tessera/core/stdio`). One
 * server answers both protocol revisions; registration calls return the server, so they chain.
 *
 * @example
 * ```ts
 * import { createServer } from '@tessera/core'
 * import { listen } from '@tessera/core/http'
 * import { z } from 'zod'
 *
 * const app = createServer({ name: 'notes', version: '1.0.0' })
 *   .tool('add', { description: 'Adds two numbers', input: z.object({ a: z.number(), b: z.number() }) },
 *     ({ a, b }) => `${a + b}`)
 *   .resource('notes://readme', { name: 'readme', mimeType: 'text/plain' },
 *     () => ({ contents: [{ uri: 'notes://readme', text: 'Hello.' }] }))
 *
 * await listen(app, { port: 3000 })
 * ```
 */
export interface McpServer {
  /** Registers a tool; its name is taken until `removeTool`. Arguments are validated before `handler` runs. */
  tool<S extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<S, O>,
    handler: ToolHandler<S, O>,
  ): McpServer
  /** Removes a tool; false when no tool had that name. Listeners hear that the list changed. */
  removeTool(name: string): boolean
  /** Registers a static resource at `uri`. */
  resource(uri: string, config: ResourceConfig, handler: ResourceHandler): McpServer
  /** Registers an RFC 6570 resource template; the handler may return undefined for an unknown URI. */
  resourceTemplate(uriTemplate: string, config: TemplateConfig, handler: TemplateHandler): McpServer
  /** Removes a resource or a template, by its URI or its template string. */
  removeResource(uriOrTemplate: string): boolean
  /** Registers a prompt; its arguments are typed from `args` (a zod object, or a list). */
  prompt<const A extends PromptArgumentsInput | undefined = undefined>(
    name: string,
    config: PromptConfig<A>,
    handler: PromptHandler<A>,
  ): McpServer
  /** Removes a prompt; false when no prompt had that name. */
  removePrompt(name: string): boolean
  /** Tells listen streams subscribed to `uri` (or a parent of it) that it changed. */
  notifyResourceUpdated(uri: string): void
  /** Counts of states opened per key id and refused per reason: tells when an old key can go. */
  stateMetrics(): StateMetrics
  /**
   * Stops the tasks this process runs (each ends failed, saying the server stopped it), ends
   * listen and session streams (each gets its closing message), then closes every store.
   */
  close(): Promise<void>
}
