/**
 * The peer: the official SDK (@modelcontextprotocol/server 2.4.x) serving the same `echo` tool, the
 * 49 catalogue tools and the `bench://greeting` resource, wired as its docs recommend for plain node:http:
 * createMcpHandler(factory) -> toNodeHandler (@modelcontextprotocol/node) -> Host/Origin guards.
 *
 * Not a repo dependency: `bench/run.ts --peer` installs it into .tessera/bench-peer and passes that
 * folder as BENCH_PEER_DIR; every SDK module (and its zod) is loaded from there.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { CATALOGUE_TOOLS } from './catalogue.ts'
import { peerImport, type ZodLike } from './peer-import.ts'

interface McpServerLike {
  registerTool(
    name: string,
    config: { description: string; inputSchema: unknown },
    cb: (args: { text: string; id: string }) => Promise<unknown>,
  ): unknown
  registerResource(
    name: string,
    uri: string,
    config: { mimeType: string },
    cb: (uri: URL) => Promise<unknown>,
  ): unknown
}
interface ServerSdk {
  McpServer: new (info: { name: string; version: string }) => McpServerLike
  createMcpHandler(factory: () => McpServerLike): unknown
}
type Guard = (req: IncomingMessage, res: ServerResponse) => boolean
interface NodeSdk {
  toNodeHandler(handler: unknown): (req: IncomingMessage, res: ServerResponse) => Promise<void>
  localhostHostValidation(): Guard
  localhostOriginValidation(): Guard
}

const { z } = await peerImport<{ z: ZodLike }>('zod')
const { McpServer, createMcpHandler } = await peerImport<ServerSdk>('@modelcontextprotocol/server')
const { toNodeHandler, localhostHostValidation, localhostOriginValidation } = await peerImport<NodeSdk>(
  '@modelcontextprotocol/node',
)

const factory = () => {
  const server = new McpServer({ name: 'bench', version: '1.0.0' })
  server.registerTool(
    'echo',
    { description: 'Echo the text back', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  )
  const lookup = z.object({ id: z.string().min(1), limit: z.number().int().min(1).max(100).optional() })
  for (const { name, description } of CATALOGUE_TOOLS) {
    server.registerTool(name, { description, inputSchema: lookup }, async ({ id }) => ({
      content: [{ type: 'text', text: `record ${id}` }],
    }))
  }
  server.registerResource('greeting', 'bench://greeting', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello' }],
  }))
  return server
}

const handler = toNodeHandler(createMcpHandler(factory))
const validateHost = localhostHostValidation()
const validateOrigin = localhostOriginValidation()

const http = createServer((req, res) => {
  if (!validateHost(req, res) || !validateOrigin(req, res)) return
  if (req.url !== '/mcp') {
    res.writeHead(404).end()
    return
  }
  void handler(req, res)
})
http.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const addr = http.address()
  console.log(`READY ${typeof addr === 'object' && addr ? addr.port : ''}`)
})
