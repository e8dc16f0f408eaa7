/**
 * Serves the fetch handler of the module `BENCH_HANDLER` names on the runtime's own server:
 * `Bun.serve` on Bun, `Deno.serve` on Deno, on 127.0.0.1 at an ephemeral port. Prints
 * `READY <port>` once it listens. (Only the bench chooses by runtime; Tessera never does.)
 */
declare const Bun:
  | {
      serve(options: { hostname: string; port: number; fetch: (request: Request) => Promise<Response> }): {
        port: number
      }
    }
  | undefined
declare const Deno:
  | {
      serve(
        options: { hostname: string; port: number; onListen(address: { port: number }): void },
        handler: (request: Request) => Promise<Response>,
      ): unknown
    }
  | undefined

const file = process.env.BENCH_HANDLER
if (file === undefined) throw new Error('BENCH_HANDLER is not set (run through `npm run bench -- --runtime`)')
const { handler } = (await import(file)) as { handler: (request: Request) => Promise<Response> }

if (typeof Bun !== 'undefined') {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handler })
  console.log(`READY ${server.port}`)
} else if (typeof Deno !== 'undefined') {
  Deno.serve(
    { hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(`READY ${port}`) },
    handler,
  )
} else {
  throw new Error('serve-web.ts runs on Bun or Deno')
}
