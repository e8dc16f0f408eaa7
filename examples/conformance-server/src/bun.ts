/**
 * @module bun
 * The conformance fixture on Bun, through the web-standard face and `Bun.serve`: 127.0.0.1 at
 * /mcp (port from PORT, default 3001).
 */
import { createFetchHandler } from '@tessera/core/http'
import { createConformanceServer } from './conformance-server.ts'

/** What this entry uses of Bun's global (Bun's own types are not a dependency of the fixture). */
declare const Bun: {
  serve(options: { hostname: string; port: number; fetch: (request: Request) => Promise<Response> }): {
    url: URL
    stop(): Promise<void>
  }
}

const handler = createFetchHandler(createConformanceServer())
const server = Bun.serve({ hostname: '127.0.0.1', port: Number(process.env.PORT ?? 3001), fetch: handler })
process.stderr.write(`conformance server on ${new URL('/mcp', server.url)} (Bun)\n`)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.stop().then(() => process.exit(0))
  })
}
