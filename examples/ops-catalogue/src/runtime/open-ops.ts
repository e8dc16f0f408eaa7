/**
 * @module open-ops
 * Everything a serving process needs before it takes a request: the catalogue (a malformed one
 * stops the start here), the shared state keys, the stores and the server built on them. The
 * process that starts first also creates the key file and seeds the log; workers only read them.
 */

import type { McpServer } from '@tessera/core'
import type { ReplayStore } from '@tessera/core/ports'
import { readStateKeyFile, type StateKey } from '@tessera/core/request-state'
import type { Catalogue } from '../catalogue/catalogue.ts'
import { loadCatalogue } from '../catalogue/load-catalogue.ts'
import { type AppConfig, rateLimitOptions } from '../cli.ts'
import { seedDeployments } from '../deployments/seed-deployments.ts'
import { ensureStateKeys } from '../keys.ts'
import type { AppLogger } from '../logger.ts'
import { createOpsServer } from '../server/create-ops-server.ts'
import { OAUTH_SCOPES } from '../server/ops-deps.ts'
import { backendFor, describeStore } from './backends.ts'
import { readBuiltView } from './built-view.ts'

export interface OpenOps {
  app: McpServer
  catalogue: Catalogue
  /** Where the data lives, for log lines (no credentials). */
  store: string
  /** The single-use store the server guards rollbacks with (DPoP proofs are recorded there too). */
  replay: ReplayStore
  /** Closes the stores the server does not close itself (the deployment log). */
  closeLog(): Promise<void>
}

/** Key file and seed: run once per start, before any worker exists. */
export async function prepareData(
  config: AppConfig,
  logger: AppLogger,
): Promise<{ catalogue: Catalogue; keys: StateKey[] }> {
  const catalogue = loadCatalogue(config.cataloguePath)
  const loaded = ensureStateKeys(config.keysPath)
  if (loaded.created)
    logger.info(
      { event: 'state_keys_created', file: config.keysPath },
      'created the requestState key file (mode 0600)',
    )
  if (loaded.readableByOthers) {
    logger.warn(
      { event: 'state_keys_mode', file: config.keysPath },
      'the requestState key file is readable by other users: chmod 600 it',
    )
  }
  const log = (await backendFor(config.store)).deploymentLog()
  try {
    const seeded = await seedDeployments(catalogue, log)
    logger.info(
      {
        event: 'catalogue_loaded',
        file: catalogue.source,
        services: catalogue.ids().length,
        seeded: seeded.length,
        store: describeStore(config.store),
      },
      seeded.length > 0
        ? `seeded the deployment log for ${seeded.length} services`
        : 'deployment log already seeded',
    )
  } finally {
    await log.close()
  }
  return { catalogue, keys: loaded.keys }
}

/** Builds the server over freshly opened stores; `prepared` skips re-reading what the caller has. */
export async function openOps(
  config: AppConfig,
  logger: AppLogger,
  prepared?: { catalogue: Catalogue; keys: StateKey[] },
): Promise<OpenOps> {
  const catalogue = prepared?.catalogue ?? loadCatalogue(config.cataloguePath)
  const keys = prepared?.keys ?? readStateKeyFile(config.keysPath).keys
  const backend = await backendFor(config.store)
  const log = backend.deploymentLog()
  const stores = backend.stores()
  const rateLimits = rateLimitOptions(config)
  const app = createOpsServer({
    catalogue,
    log,
    stores,
    scopes: config.auth ? OAUTH_SCOPES : undefined,
    rollbackMs: config.rollbackSeconds * 1000,
    leaseMs: config.leaseSeconds * 1000,
    afterCommit: killAfterCommit(),
    stateKeys: keys,
    logger,
    frameworkLogger: logger.child({ component: 'tessera' }),
    view: readBuiltView(),
    ...(rateLimits === undefined ? {} : { rateLimits }),
  })
  return {
    app,
    catalogue,
    store: describeStore(config.store),
    replay: stores.replay!,
    closeLog: () => log.close(),
  }
}

/**
 * The crash the exactly-once test needs, at the one moment it needs it: with
 * `OPS_TEST_KILL_AFTER_COMMIT=1` the process kills itself (SIGKILL, no cleanup) right after a
 * rollback reached the log, before its single-use record says done. Never set otherwise.
 */
function killAfterCommit(): (() => void) | undefined {
  if (process.env.OPS_TEST_KILL_AFTER_COMMIT !== '1') return undefined
  return () => process.kill(process.pid, 'SIGKILL')
}
