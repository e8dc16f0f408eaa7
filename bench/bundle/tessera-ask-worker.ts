/**
 * @module tessera-ask-worker
 * The hello server with `confirm` beside `greet`: a tool that asks once (an elicitation form),
 * then answers. `npm run bench:workerd` measures the CPU of that round trip on workerd.
 */
import { createServer, elicitForm } from '@tessera/core'
import { createFetchHandler } from '@tessera/core/http'
import { z } from 'zod'

const app = createServer({
  name: 'hello',
  version: '1.0.0',
  requestState: { keys: [{ id: 'bench', secret: 'bench-key-bench-key-bench-key-bench-key' }] },
  logger: { debug() {}, info() {}, warn() {}, error() {} },
})
const ask = elicitForm({
  message: 'Proceed?',
  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
})
app.tool(
  'confirm',
  { description: 'Asks, then echoes', input: z.object({ text: z.string() }) },
  async ({ text }, ctx) => {
    const answer = await ctx.ask('confirm', ask)
    return answer.action === 'accept' ? `confirmed ${text}` : 'nothing done'
  },
)
const mcp = createFetchHandler(app)

export default { fetch: mcp }
