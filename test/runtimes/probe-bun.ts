/**
 * The probe server on Bun, through the web-standard face and `Bun.serve` with its defaults; the
 * peer's address from `server.requestIP`, for `trustProxy`.
 */
import { createFetchHandler } from '@tessera/core/http'
import { createProbeServer, PROBE_HTTP_OPTIONS } from './probe-server.ts'

/** What this entry uses of Bun's global (Bun's own types are not a dependency). */
interface BunServer {
  url: URL
  requestIP(request: Request): { address: string } | null
}
declare const Bun: {
  serve(options: {
    hostname: string
    port: number
    fetch: (request: Request, server: BunServer) => Promise<Response>
  }): BunServer
}

const mcp = createFetchHandler(createProbeServer(), PROBE_HTTP_OPTIONS)
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT),
  fetch: (request, bun) => mcp(request, undefined, { remoteAddress: bun.requestIP(request)?.address }),
})
process.stderr.write(`probe server on ${new URL('/mcp', server.url)}\n`)
