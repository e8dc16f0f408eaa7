/**
 * @module main
 * The conformance fixture: every tool, resource and prompt the official suite calls, on
 * 127.0.0.1 at /mcp (port from PORT, default 3001).
 */
import { createServer } from '@tessera/core'
import { listen } from '@tessera/core/http'
import { registerPrompts, registerResources, registerTriggers } from './catalogue.ts'
import { registerContentTools } from './content-tools.ts'
import { registerInteractiveTools } from './interactive-tools.ts'
import { registerTaskTools } from './task-tools.ts'

export function createConformanceServer() {
  const app = createServer({ name: 'tessera-conformance', version: '0.1.0', logging: true })
  registerContentTools(app)
  registerInteractiveTools(app)
  registerTaskTools(app)
  registerTriggers(app)
  registerResources(app)
  registerPrompts(app)
  return app
}

const server = await listen(createConformanceServer(), { port: Number(process.env.PORT ?? 3001) })
process.stderr.write(`conformance server on ${server.url}\n`)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close().then(() => process.exit(0))
  })
}
