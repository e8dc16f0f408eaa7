/**
 * @module ops-deps
 * What every tool, resource and prompt of the server is built from, passed explicitly so a test
 * can build the same server in-process over a temporary store.
 */
import type { Logger } from '@tessera/core'
import type { Catalogue } from '../catalogue/catalogue.ts'
import type { DeploymentLog } from '../deployments/deployment-log.ts'

export interface OpsDeps {
  catalogue: Catalogue
  log: DeploymentLog
  logger: Logger
}

export function runbooksUri(service: string): string {
  return `ops://runbooks/${service}`
}
