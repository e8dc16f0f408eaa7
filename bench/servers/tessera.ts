/** Tessera serving the bench `echo` tool and `bench://greeting` resource (2026-07-28, stateless). */
import { createServer } from '@tessera/core'
import { listen } from '@tessera/core/http'
import { z } from 'zod'

const app = createServer({ name: 'bench', version: '1.0.0' })
app.tool(
  'echo',
  { description: 'Echo the text back', input: z.object({ text: z.string() }) },
  ({ text }) => ({
    content: [{ type: 'text', text }],
  }),
)
app.resource('bench://greeting', { name: 'greeting', mimeType: 'text/plain' }, () => ({
  contents: [{ uri: 'bench://greeting', mimeType: 'text/plain', text: 'hello' }],
}))

const server = await listen(app, { host: '127.0.0.1', port: Number(process.env.PORT ?? 0), path: '/mcp' })
console.log(`READY ${server.port}`)
