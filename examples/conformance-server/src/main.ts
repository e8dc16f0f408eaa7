/**
 * @module main
 * The conformance fixture on Node, through `listen`: 127.0.0.1 at /mcp (port from PORT, default
 * 3001).
 */
import { listen } from '@tessera/core/http'
import { createConformanceServer } from './conformance-server.ts'

const server = await listen(createConformanceServer(), { port: Number(process.env.PORT ?? 3001) })
process.stderr.write(`conformance server on ${server.url}\n`)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close().then(() => process.exit(0))
  })
}
