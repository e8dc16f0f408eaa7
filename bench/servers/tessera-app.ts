/** The bench server's app: the `echo` tool and `bench://greeting` resource, built the same for every variant. */
import { createServer, type McpServer } from '@tessera/core'
import { z } from 'zod'

export function benchApp(options: { telemetry?: boolean } = {}): McpServer {
  const app = createServer({ name: 'bench', version: '1.0.0', ...options })
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
  return app
}
