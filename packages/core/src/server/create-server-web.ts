/**
 * @module create-server-web
 * `createServer` with the web defaults (`platform-web.ts`): what `@tessera/core` exports under the
 * `workerd`, `worker` and `browser` export conditions.
 */
import type { McpServer } from './mcp-server.ts'
import { webPlatform } from './platform-web.ts'
import { createServerOn, type ServerOptions } from './server.ts'

/**
 * Creates a server from its options, with the console logger and a bus in memory unless the
 * options give others; build it once, at a Worker's module scope, and serve it with
 * `createFetchHandler`. Options are checked at once, as on Node.
 *
 * @example
 * ```ts
 * import { createServer } from '@tessera/core'
 * import { createFetchHandler } from '@tessera/core/http'
 *
 * const app = createServer({ name: 'ops', version: '1.0.0' })
 * app.tool('status', { description: 'Overall status' }, () => 'healthy')
 * const mcp = createFetchHandler(app)
 * export default { fetch: mcp }
 * ```
 */
export function createServer(options: ServerOptions): McpServer {
  return createServerOn(webPlatform, options)
}
