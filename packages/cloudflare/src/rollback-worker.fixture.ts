/**
 * @module rollback-worker.fixture
 * A Worker whose single-use rollback asks before it acts, its records in the Durable Object: run
 * as several Workers (isolates) over one namespace, and again after workerd restarts on the same
 * storage, it shows that one accepted answer acts once wherever and whenever its copies arrive.
 * The server is built once per isolate, on its first request (the binding comes with it).
 */
import { createServer, elicitForm } from '@tessera/core'
import { createFetchHandler, type FetchContext } from '@tessera/core/http'
import { durableObjectStores } from './durable-object-stores.ts'
import type { DurableObjectNamespaceLike } from './object-stub.ts'

export { TesseraDurableObject } from './tessera-durable-object.ts'

interface Env {
  TESSERA: DurableObjectNamespaceLike
}

/** Every isolate opens the states the others sealed: one key, fixed for the test. */
const TEST_STATE_SECRET = 'rollback-worker-fixture-secret-of-32+-chars'

const askConfirm = elicitForm({
  message: 'Roll back?',
  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
})

function rollbackServer(env: Env) {
  const app = createServer({
    name: 'rollback-worker',
    version: '1.0.0',
    requestState: { keys: [{ id: 'test', secret: TEST_STATE_SECRET }] },
    stores: durableObjectStores(env.TESSERA),
  })
  app.tool(
    'rollback',
    { description: 'Acts once per accepted answer.', singleUse: true },
    async (_args, ctx) => {
      const answer = await ctx.ask('confirm', askConfirm)
      if (answer.action !== 'accept') return 'Nothing was rolled back.'
      // Long enough for the copies of one answer to arrive while it acts.
      await new Promise((resolve) => setTimeout(resolve, 200))
      return 'Rolled back.'
    },
  )
  return app
}

let mcp: ReturnType<typeof createFetchHandler> | undefined

export default {
  fetch(request: Request, env: Env, context: FetchContext): Promise<Response> {
    mcp ??= createFetchHandler(rollbackServer(env))
    return mcp(request, env, context)
  },
}
