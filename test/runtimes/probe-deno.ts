/**
 * The probe server on Deno, through the web-standard face and `Deno.serve` with its defaults; the
 * peer's address from the handler's `info`, for `trustProxy`.
 */
import { createFetchHandler } from '@tessera/core/http'
import { createProbeServer, PROBE_HTTP_OPTIONS } from './probe-server.ts'

/** What this entry uses of Deno's global (Deno's own types are not a dependency). */
declare const Deno: {
  env: { get(name: string): string | undefined }
  serve(
    options: { hostname: string; port: number; onListen: (address: { port: number }) => void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
  ): unknown
}

const mcp = createFetchHandler(createProbeServer(), PROBE_HTTP_OPTIONS)
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT')),
    onListen: ({ port }) => console.error(`probe server on http://127.0.0.1:${port}/mcp`),
  },
  (request, info) => mcp(request, undefined, { remoteAddress: info.remoteAddr.hostname }),
)
