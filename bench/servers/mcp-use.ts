/**
 * The second peer: mcp-use (2.5.x, on the official SDK), serving the same `echo` tool, the 49
 * catalogue tools and the `bench://greeting` resource, through its own `MCPServer.listen` (Hono,
 * its Host and Origin checks), as its README starts a server. Its request log (a line on stdout
 * per request) and its usage telemetry are turned off, as Tessera logs nothing per request at its
 * default level.
 *
 * Not a repo dependency: `bench/run.ts --peer` installs it into .tessera/bench-mcp-use and passes
 * that folder as BENCH_PEER_DIR; mcp-use (and its zod) is loaded from there.
 */
import { CATALOGUE_TOOLS } from './catalogue.ts'
import { peerImport, type ZodLike } from './peer-import.ts'

interface McpUseServer {
  tool(
    definition: { name: string; description: string; inputSchema: unknown },
    cb: (args: { text: string; id: string }) => Promise<unknown>,
  ): unknown
  resource(
    definition: { name: string; uri: string; mimeType: string },
    cb: (uri: URL) => Promise<unknown>,
  ): unknown
  listen(port: number, options: { host: string }): Promise<{ port: number }>
}
interface McpUse {
  MCPServer: new (config: { name: string; version: string; logging: { enabled: boolean } }) => McpUseServer
}

process.env.MCP_USE_ANONYMIZED_TELEMETRY = 'false'
const { z } = await peerImport<{ z: ZodLike }>('zod')
const { MCPServer } = await peerImport<McpUse>('mcp-use')

const server = new MCPServer({ name: 'bench', version: '1.0.0', logging: { enabled: false } })
server.tool(
  { name: 'echo', description: 'Echo the text back', inputSchema: z.object({ text: z.string() }) },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
)
const lookup = z.object({ id: z.string().min(1), limit: z.number().int().min(1).max(100).optional() })
for (const { name, description } of CATALOGUE_TOOLS) {
  server.tool({ name, description, inputSchema: lookup }, async ({ id }) => ({
    content: [{ type: 'text', text: `record ${id}` }],
  }))
}
server.resource({ name: 'greeting', uri: 'bench://greeting', mimeType: 'text/plain' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello' }],
}))
const { port } = await server.listen(Number(process.env.PORT ?? 0), { host: '127.0.0.1' })
console.log(`READY ${port}`)
