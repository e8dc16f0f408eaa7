/**
 * @module deno
 * The conformance fixture on Deno, through the web-standard face and `Deno.serve`: 127.0.0.1 at
 * /mcp (port from PORT, default 3001).
 */
import { createFetchHandler } from '@tessera/core/http'
import { createConformanceServer } from './conformance-server.ts'

/** What this entry uses of Deno's global (Deno's own types are not a dependency of the fixture). */
declare const Deno: {
  env: { get(name: string): string | undefined }
  serve(
    options: {
      hostname: string
      port: number
      onListen?: (address: { hostname: string; port: number }) => void
    },
    handler: (request: Request) => Promise<Response>,
  ): { shutdown(): Promise<void> }
  addSignalListener(signal: 'SIGINT' | 'SIGTERM', handler: () => void): void
  exit(code: number): never
}

const handler = createFetchHandler(createConformanceServer())
const server = Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 3001),
    onListen: ({ hostname, port }) =>
      console.error(`conformance server on http://${hostname}:${port}/mcp (Deno)`),
  },
  handler,
)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  Deno.addSignalListener(signal, () => {
    server.shutdown().then(() => Deno.exit(0))
  })
}
