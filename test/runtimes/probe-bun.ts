/** The probe server on Bun, through the web-standard face and `Bun.serve` with its defaults. */
import { createFetchHandler } from '@tessera/core/http'
import { createProbeServer } from './probe-server.ts'

/** What this entry uses of Bun's global (Bun's own types are not a dependency). */
declare const Bun: {
  serve(options: { hostname: string; port: number; fetch: (request: Request) => Promise<Response> }): {
    url: URL
  }
}

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT),
  fetch: createFetchHandler(createProbeServer()),
})
process.stderr.write(`probe server on ${new URL('/mcp', server.url)}\n`)
