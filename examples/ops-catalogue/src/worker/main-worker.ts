/**
 * @module main-worker
 * The ops catalogue as a Cloudflare Worker (`wrangler deploy`, see wrangler.toml): the same server
 * as on Node, its catalogue bundled, its deployment log in the `DeploymentLedger` Durable Object,
 * and its single-use records, tasks and bus in `TesseraDurableObject`, so a rollback acts once
 * whichever isolate each copy of an answer reaches. The server is built on the isolate's first
 * request (the bindings come with it) and kept for the isolate's life.
 *
 * Bindings: `TESSERA` and `OPS_LEDGER` (the two classes), the secret `STATE_KEY` (at least 32
 * characters: `wrangler secret put STATE_KEY`), and `ALLOWED_HOSTS`, the host names clients reach
 * the Worker by (comma-separated; without it only loopback names are served, as under
 * `wrangler dev`).
 */
import { type DurableObjectNamespaceLike, durableObjectStores } from '@tessera/cloudflare'
import { consoleLogger } from '@tessera/core'
import { createFetchHandler, type FetchContext } from '@tessera/core/http'
import ops from '../../data/ops.json' with { type: 'json' }
import { parseCatalogue } from '../catalogue/parse-catalogue.ts'
import { createOpsServer } from '../server/create-ops-server.ts'
import { durableObjectDeploymentLog } from './durable-object-deployment-log.ts'

export { TesseraDurableObject } from '@tessera/cloudflare'
export { DeploymentLedger } from './deployment-ledger.ts'

export interface OpsEnv {
  TESSERA: DurableObjectNamespaceLike
  OPS_LEDGER: DurableObjectNamespaceLike
  STATE_KEY?: string
  ALLOWED_HOSTS?: string
}

/** The key id every isolate seals under; rotate by adding a key (see the Node server's keys.ts). */
const STATE_KEY_ID = 'worker-1'

let handler: ((request: Request, env: OpsEnv, context?: FetchContext) => Promise<Response>) | undefined

function opsHandler(env: OpsEnv) {
  if (typeof env.STATE_KEY !== 'string' || env.STATE_KEY.length < 32) {
    throw new Error(
      'STATE_KEY must be set to a secret of at least 32 characters: wrangler secret put STATE_KEY',
    )
  }
  const logger = consoleLogger('info')
  const server = createOpsServer({
    catalogue: parseCatalogue(JSON.stringify(ops), 'data/ops.json'),
    log: durableObjectDeploymentLog(env.OPS_LEDGER),
    stores: durableObjectStores(env.TESSERA, {
      onError: (error) => logger.warn({ err: error }, 'bus failure'),
    }),
    stateKeys: [{ id: STATE_KEY_ID, secret: env.STATE_KEY }],
    logger,
  })
  const hosts = env.ALLOWED_HOSTS?.split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '')
  return createFetchHandler(server, hosts === undefined || hosts.length === 0 ? {} : { allowedHosts: hosts })
}

export default {
  fetch(request: Request, env: OpsEnv, context: FetchContext): Promise<Response> {
    handler ??= opsHandler(env)
    return handler(request, env, context)
  },
}
