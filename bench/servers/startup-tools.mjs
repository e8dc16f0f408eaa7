// The startup case: a server with 50 tools, each with its own zod input schema, in plain
// JavaScript run by plain `node`, so `@tessera/core` loads from its compiled `dist/` exactly as
// an installed package does. Prints `READY <port>` once it listens.
import { createServer } from '@tessera/core'
import { listen } from '@tessera/core/http'
import { z } from 'zod'

const TOOLS = Number(process.env.TOOLS ?? 50)
const app = createServer({
  name: 'startup',
  version: '1.0.0',
  requestState: { keys: [{ id: 'k', secret: 'x'.repeat(32) }] },
})
for (let i = 1; i <= TOOLS; i++) {
  app.tool(
    `tool_${i}`,
    {
      description: `Tool number ${i}`,
      input: z.object({
        service: z.string().min(1),
        limit: z.number().int().min(1).max(100).optional(),
        dryRun: z.boolean().default(false),
      }),
      output: z.object({ service: z.string(), n: z.number() }),
    },
    ({ service }) => ({
      content: [{ type: 'text', text: `${service} ${i}` }],
      structuredContent: { service, n: i },
    }),
  )
}
const server = await listen(app, { host: '127.0.0.1', port: 0 })
console.log(`READY ${server.port}`)
