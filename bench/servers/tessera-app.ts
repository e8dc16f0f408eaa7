/**
 * The bench server's app: the `echo` tool, the 49 catalogue tools and the `bench://greeting`
 * resource, built the same for every variant.
 */
import { createServer, type McpServer, type ServerOptions } from '@tessera/core'
import { z } from 'zod'
import { CATALOGUE_TOOLS } from './catalogue.ts'

export function benchApp(
  options: Partial<Pick<ServerOptions, 'telemetry' | 'rateLimits' | 'stores'>> = {},
): McpServer {
  const app = createServer({ name: 'bench', version: '1.0.0', ...options })
  app.tool(
    'echo',
    { description: 'Echo the text back', input: z.object({ text: z.string() }) },
    ({ text }) => ({
      content: [{ type: 'text', text }],
    }),
  )
  const lookup = z.object({ id: z.string().min(1), limit: z.number().int().min(1).max(100).optional() })
  for (const { name, description } of CATALOGUE_TOOLS) {
    app.tool(name, { description, input: lookup }, ({ id }) => `record ${id}`)
  }
  app.resource('bench://greeting', { name: 'greeting', mimeType: 'text/plain' }, () => ({
    contents: [{ uri: 'bench://greeting', mimeType: 'text/plain', text: 'hello' }],
  }))
  return app
}
