/**
 * @module durable-worker
 * The conformance fixture as a Cloudflare Worker whose single-use records, tasks and bus are in a
 * Durable Object (`@tessera/cloudflare`): `npm run conformance -- --runtime workerd-durable`
 * bundles it and runs it on workerd with the object bound as `TESSERA`. Built on the first request,
 * which brings the binding.
 */
import { type DurableObjectNamespaceLike, durableObjectStores } from '@tessera/cloudflare'
import { createFetchHandler, type FetchContext, type FetchHandler } from '@tessera/core/http'
import { createConformanceServer } from './conformance-server.ts'

export { TesseraDurableObject } from '@tessera/cloudflare'

interface Env {
  TESSERA: DurableObjectNamespaceLike
}

let mcp: FetchHandler | undefined

export default {
  fetch(request: Request, env: Env, context: FetchContext): Promise<Response> {
    mcp ??= createFetchHandler(createConformanceServer(durableObjectStores(env.TESSERA)))
    return mcp(request, env, context)
  },
}
