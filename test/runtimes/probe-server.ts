/**
 * @module probe-server
 * The server every runtime serves for its probes: a greeting, a single-use rollback that asks
 * before it acts and counts what it did, and a count to read back. The entries beside it serve it
 * on Node (`listen`), Bun (`Bun.serve`) and Deno (`Deno.serve`), on 127.0.0.1:$PORT at /mcp, with
 * `PROBE_HTTP_OPTIONS`.
 */
import { createServer, elicitForm, type ServerOptions } from '@tessera/core'
import type { HttpOptions } from '@tessera/core/http'
import { z } from 'zod'

/**
 * How every runtime serves the probe server: behind a proxy on 127.0.0.1, under the loopback
 * names and the public one the proxy forwards (`mcp.example.com`). Where the runtime tells the
 * peer's address, the forwarded host is checked; a Worker knows none, so it reads no forwarding.
 */
export const PROBE_HTTP_OPTIONS: HttpOptions = {
  trustProxy: ['127.0.0.1'],
  allowedHosts: ['localhost', '127.0.0.1', '[::1]', 'mcp.example.com'],
}

const askConfirm = elicitForm({
  message: 'Roll back?',
  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
})

/** The probe server; its stores in memory and an ephemeral key unless `options` give them. */
export function createProbeServer(options: Pick<ServerOptions, 'stores' | 'requestState'> = {}) {
  let rolledBack = 0
  const app = createServer({ name: 'runtime-probe', version: '1.0.0', ...options })
  app.tool(
    'greet',
    { description: 'Greets someone.', input: z.object({ name: z.string() }) },
    ({ name }) => `Hello, ${name}!`,
  )
  app.tool(
    'rollback',
    { description: 'Acts once per accepted answer.', singleUse: true },
    async (_args, ctx) => {
      const answer = await ctx.ask('confirm', askConfirm)
      if (answer.action !== 'accept') return 'Nothing was rolled back.'
      rolledBack++
      // Long enough for the copies of one answer to arrive while it acts.
      await new Promise((resolve) => setTimeout(resolve, 200))
      return 'Rolled back.'
    },
  )
  app.tool('rollbacks', { description: 'How many rollbacks ran.' }, () => String(rolledBack))
  return app
}
