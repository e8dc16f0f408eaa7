/**
 * The probe server as a Worker whose stores are in a Durable Object bound as `TESSERA`: built on
 * the first request, which brings the binding, and served through the fetch face.
 */
import { type DurableObjectNamespaceLike, durableObjectStores } from '@tessera/cloudflare'
import { createFetchHandler, type FetchContext, type FetchHandler } from '@tessera/core/http'
import { createProbeServer } from './probe-server.ts'

export { TesseraDurableObject } from '@tessera/cloudflare'

let mcp: FetchHandler | undefined

export default {
  fetch(
    request: Request,
    env: { TESSERA: DurableObjectNamespaceLike },
    context: FetchContext,
  ): Promise<Response> {
    mcp ??= createFetchHandler(createProbeServer(durableObjectStores(env.TESSERA)))
    return mcp(request, env, context)
  },
}
