/**
 * @module cluster
 * `--workers N`: the primary prepares once (key file, seed) and N workers serve the one port.
 * Everything that decides "was this answer already used" lives in the store and the key file,
 * never in memory: any worker may get the retry of an answer another worker asked.
 */
import { serveCluster } from '@tessera/core/cluster'
import { type AppConfig, proxyOptions } from './cli.ts'
import type { AppLogger } from './logger.ts'
import { type OpenOps, openOps, prepareData } from './runtime/open-ops.ts'

export async function serveWorkers(config: AppConfig, logger: AppLogger): Promise<void> {
  let ops: OpenOps | undefined
  // Built before this worker's server: DPoP proofs reach its store once it is open. @tessera/auth
  // (and jose) are loaded only by a server that takes tokens.
  const auth = config.auth
    ? (await import('./runtime/ops-auth.ts')).opsAuth(config.auth, () => ops!.replay)
    : undefined
  // The primary logs `cluster_listening` with the URL once every worker listens.
  await serveCluster({
    workers: config.workers,
    host: config.host,
    port: config.port,
    path: config.path,
    ...proxyOptions(config),
    auth,
    health: true,
    logger,
    prepare: async () => {
      await prepareData(config, logger)
    },
    server: async ({ id }) => {
      ops = await openOps(config, logger.child({ worker: id }))
      return ops.app
    },
    onWorkerClose: () => ops?.closeLog(),
  })
}
