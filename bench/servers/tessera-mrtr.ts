/**
 * Tessera serving the multi round-trip benchmark: `echo` (a plain call), `confirm` (asks once,
 * then answers), `confirm_once` (the same, declared single-use, so the answer runs under the
 * guard) and `confirm_per_call` (the same as `confirm`, its form's schema built on every run, as a
 * form whose fields depend on the call must be). STORE picks the single-use record store: memory
 * (default), sqlite, redis, postgres.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer, elicitForm, type RequestContext } from '@tessera/core'
import { listen } from '@tessera/core/http'
import type { ReplayStore } from '@tessera/core/ports'
import { z } from 'zod'

async function storeFromEnv(): Promise<ReplayStore | undefined> {
  switch (process.env.STORE ?? 'memory') {
    case 'memory':
      return undefined
    case 'sqlite': {
      const { sqliteReplayStore } = await import('@tessera/store-sqlite')
      return sqliteReplayStore({ path: join(mkdtempSync(join(tmpdir(), 'tessera-bench-')), 'replay.db') })
    }
    case 'redis': {
      const { redisReplayStore } = await import('@tessera/store-redis')
      return redisReplayStore({
        // Database 1: the records a run leaves behind (until their ttl) stay out of database 0,
        // where the test suites' session store counts keys with SCAN over the whole database.
        url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/1',
        keyPrefix: `bench:${process.pid}:`,
      })
    }
    case 'postgres': {
      const { postgresReplayStore } = await import('@tessera/store-postgres')
      const connectionString = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
      return postgresReplayStore({ connectionString, table: `tessera_bench_${process.pid}` })
    }
    default:
      throw new Error(`unknown STORE ${process.env.STORE}`)
  }
}

const store = await storeFromEnv()
const app = createServer({
  name: 'bench',
  version: '1.0.0',
  requestState: { keys: [{ id: 'bench', secret: 'bench-key-bench-key-bench-key-bench-key' }] },
  stores: { replay: store },
  logger: { debug() {}, info() {}, warn() {}, error() {} },
})
app.tool(
  'echo',
  { description: 'Echo the text back', input: z.object({ text: z.string() }) },
  ({ text }) => text,
)
/** The `Proceed?` question, its form's schema taken from `form` on every run of the handler. */
const confirmWith =
  (form: () => z.ZodObject<{ ok: z.ZodBoolean }>) =>
  async ({ text }: { text: string }, ctx: RequestContext) => {
    const answer = await ctx.ask('confirm', elicitForm({ message: 'Proceed?', schema: form() }))
    return answer.action === 'accept' ? `confirmed ${text}` : 'nothing done'
  }
const proceedForm = () => z.object({ ok: z.boolean().describe('Go ahead') })
// Written as get-started writes it: a form whose fields never change is built once, like a tool's input.
const Proceed = proceedForm()
const confirm = confirmWith(() => Proceed)
// The same question built in the handler, on each of the round trip's two runs: what a form costs
// whose fields depend on the call (the choices offered, say).
const confirmPerCall = confirmWith(proceedForm)
app.tool('confirm', { description: 'Asks, then echoes', input: z.object({ text: z.string() }) }, confirm)
app.tool(
  'confirm_once',
  {
    description: 'Asks, then echoes, once per answer',
    input: z.object({ text: z.string() }),
    singleUse: true,
  },
  confirm,
)
app.tool(
  'confirm_per_call',
  { description: 'Asks with a form built per call, then echoes', input: z.object({ text: z.string() }) },
  confirmPerCall,
)

const server = await listen(app, { host: '127.0.0.1', port: Number(process.env.PORT ?? 0), path: '/mcp' })
// Exiting (rather than dying of the signal) lets `--cpu-prof` write the profile.
process.once('SIGTERM', () => process.exit(0))
console.log(`READY ${server.port}`)
