/**
 * @module official-worker
 * The same hello server on the official TypeScript SDK, stateless, through its web-standard
 * transport, as its documentation builds one per request. `npm run bench:bundle` bundles it beside
 * Tessera's.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { z } from 'zod'

export default {
  async fetch(request: Request): Promise<Response> {
    const server = new McpServer({ name: 'hello', version: '1.0.0' })
    server.registerTool(
      'greet',
      { description: 'Greet someone by name', inputSchema: { name: z.string() } },
      async ({ name }) => ({ content: [{ type: 'text' as const, text: `Hello, ${name}.` }] }),
    )
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined })
    await server.connect(transport)
    return transport.handleRequest(request)
  },
}
