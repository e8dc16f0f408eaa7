/**
 * @module create-server
 * `createServer` with Node's defaults (`platform-node.ts`): what `@tessera/core` exports on Node.
 */
import type { McpServer } from './mcp-server.ts'
import { nodePlatform } from './platform-node.ts'
import { createServerOn, type ServerOptions } from './server.ts'

export type { HandshakeOptions, ServerOptions, TaskOptions } from './server.ts'

/**
 * Creates a server from its options; register tools, resources and prompts on it, then serve it
 * with a transport. Options are checked at once: an unknown or misspelled one is a TypeError that
 * names it.
 *
 * @example
 * ```ts
 * import { createServer } from '@tessera/core'
 * import { z } from 'zod'
 *
 * const app = createServer({ name: 'ops', version: '1.0.0', instructions: 'Ask before acting.' })
 * app.tool('status', { description: 'A service status', input: z.object({ service: z.string() }) },
 *   ({ service }) => `${service}: healthy`)
 * ```
 */
export function createServer(options: ServerOptions): McpServer {
  return createServerOn(nodePlatform, options)
}
