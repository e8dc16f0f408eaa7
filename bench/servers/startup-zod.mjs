// The floor of a server whose tools are zod schemas: plain node:http, plus what any such server
// does before its first answer: load zod, build the 50 tools' input and output schemas, convert
// each to JSON Schema (the form `tools/list` sends), and parse the call's arguments with its
// tool's schema. No MCP machinery. Prints `READY <port>` once it listens.
import { createServer } from 'node:http'
import { z } from 'zod'

const TOOLS = Number(process.env.TOOLS ?? 50)
const tools = new Map()
for (let i = 1; i <= TOOLS; i++) {
  const input = z.object({
    service: z.string().min(1),
    limit: z.number().int().min(1).max(100).optional(),
    dryRun: z.boolean().default(false),
  })
  const output = z.object({ service: z.string(), n: z.number() })
  tools.set(`tool_${i}`, {
    input,
    listed: { inputSchema: z.toJSONSchema(input, { io: 'input' }), outputSchema: z.toJSONSchema(output) },
    n: i,
  })
}

const server = createServer((req, res) => {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => {
    const { id, params } = JSON.parse(Buffer.concat(chunks).toString())
    const tool = tools.get(params.name)
    const { service } = tool.input.parse(params.arguments)
    const result = {
      content: [{ type: 'text', text: `${service} ${tool.n}` }],
      structuredContent: { service, n: tool.n },
    }
    const body = JSON.stringify({ jsonrpc: '2.0', id, result })
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  })
})
server.listen(0, '127.0.0.1', () => console.log(`READY ${server.address().port}`))
