// The startup case on the official SDK: the 50 tools of startup-tools.mjs (the same zod input and
// output schemas and results), wired as official.ts wires its server. `bench/startup.ts --peer`
// copies this file into the peer's folder and runs it there, so its imports resolve to the
// peer's own packages. Prints `READY <port>` once it listens.
import { createServer } from 'node:http'
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node'
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server'
import { z } from 'zod'

const TOOLS = Number(process.env.TOOLS ?? 50)
const inputs = []
for (let i = 1; i <= TOOLS; i++) {
  inputs.push({
    input: z.object({
      service: z.string().min(1),
      limit: z.number().int().min(1).max(100).optional(),
      dryRun: z.boolean().default(false),
    }),
    output: z.object({ service: z.string(), n: z.number() }),
  })
}
const factory = () => {
  const server = new McpServer({ name: 'startup', version: '1.0.0' })
  inputs.forEach(({ input, output }, index) => {
    const i = index + 1
    server.registerTool(
      `tool_${i}`,
      { description: `Tool number ${i}`, inputSchema: input, outputSchema: output },
      async ({ service }) => ({
        content: [{ type: 'text', text: `${service} ${i}` }],
        structuredContent: { service, n: i },
      }),
    )
  })
  return server
}
const handler = toNodeHandler(createMcpHandler(factory))
const validateHost = localhostHostValidation()
const validateOrigin = localhostOriginValidation()
const http = createServer((req, res) => {
  if (!validateHost(req, res) || !validateOrigin(req, res)) return
  void handler(req, res)
})
http.listen(0, '127.0.0.1', () => console.log(`READY ${http.address().port}`))
