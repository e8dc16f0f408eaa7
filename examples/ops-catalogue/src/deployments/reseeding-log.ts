/**
 * @module reseeding-log
 * A deployment log that notices it lost its data. Its history is seeded from the catalogue at
 * start; a store that forgets (a Redis restarted without persistence, a dropped table) leaves
 * known services with no history at all, and every tool would fail on them until a restart. So a
 * read that finds a known service empty seeds it again (seeding is atomic and happens once),
 * says so in the log at warn, and answers from the seeded history: what the store forgot, such as
 * rollbacks since the start, is gone, and the warning says that too.
 */

import type { Logger } from '@tessera/core'
import type { Catalogue } from '../catalogue/catalogue.ts'
import type { DeploymentLog } from './deployment-log.ts'

export function reseedingLog(log: DeploymentLog, catalogue: Catalogue, logger: Logger): DeploymentLog {
  return {
    seed: (service, entries) => log.seed(service, entries),
    append: (entry, expected) => log.append(entry, expected),
    byRequestKey: (key) => log.byRequestKey(key),
    close: () => log.close(),
    async history(service) {
      const history = await log.history(service)
      const entry = history.length === 0 ? catalogue.get(service) : undefined
      if (entry === undefined) return history
      if (await log.seed(service, entry.deployments)) {
        logger.warn(
          { event: 'deployment_log_reseeded', service },
          'the deployment log had no history for this service, so its store lost its data: seeded it from the catalogue again (changes made since the start are gone)',
        )
      }
      return log.history(service)
    },
  }
}
