/**
 * The probe server as a Worker whose stores are in a Durable Object bound as `TESSERA`: built on
 * the first request, which brings the binding, and served through the fetch face. Its requestState
 * key is fixed, so that several Workers (isolates) over one namespace, and a workerd restarted on
 * the same storage, open each other's states (`durable-object-single-use.test.ts`).
 */
import { type DurableObjectNamespaceLike, durableObjectStores } from '@tessera/cloudflare'
import { createFetchHandler, type FetchContext, type FetchHandler } from '@tessera/core/http'
import { createProbeServer, PROBE_HTTP_OPTIONS } from './probe-server.ts'

export { TesseraDurableObject } from '@tessera/cloudflare'

/** A test key, the same in every isolate. */
const TEST_STATE_SECRET = 'probe-durable-worker-secret-of-32+-characters'

let mcp: FetchHandler | undefined

export default {
  fetch(
    request: Request,
    env: { TESSERA: DurableObjectNamespaceLike },
    context: FetchContext,
  ): Promise<Response> {
    mcp ??= createFetchHandler(
      createProbeServer({
        requestState: { keys: [{ id: 'test', secret: TEST_STATE_SECRET }] },
        stores: durableObjectStores(env.TESSERA),
      }),
      PROBE_HTTP_OPTIONS,
    )
    return mcp(request, env, context)
  },
}
