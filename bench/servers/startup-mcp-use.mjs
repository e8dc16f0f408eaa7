// The startup case on mcp-use: the 50 tools of startup-tools.mjs (the same zod input and output
// schemas and results), served by `MCPServer.listen` with its request log and usage telemetry
// off, as mcp-use.ts serves its server. `bench/startup.ts --peer` copies this file into the
// peer's folder and runs it there, so its imports resolve to the peer's own packages. Prints
// `READY <port>` once it listens.
import { MCPServer } from 'mcp-use'
import { z } from 'zod'

process.env.MCP_USE_ANONYMIZED_TELEMETRY = 'false'
const TOOLS = Number(process.env.TOOLS ?? 50)
const server = new MCPServer({ name: 'startup', version: '1.0.0', logging: { enabled: false } })
for (let i = 1; i <= TOOLS; i++) {
  server.tool(
    {
      name: `tool_${i}`,
      description: `Tool number ${i}`,
      inputSchema: z.object({
        service: z.string().min(1),
        limit: z.number().int().min(1).max(100).optional(),
        dryRun: z.boolean().default(false),
      }),
      outputSchema: z.object({ service: z.string(), n: z.number() }),
    },
    async ({ service }) => ({
      content: [{ type: 'text', text: `${service} ${i}` }],
      structuredContent: { service, n: i },
    }),
  )
}
const { port } = await server.listen(0, { host: '127.0.0.1' })
console.log(`READY ${port}`)
