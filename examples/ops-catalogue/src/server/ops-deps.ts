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
  scopes: OpsScopes
  /** How long a rollback takes to roll out, in milliseconds (0: at once). */
  rollbackMs: number
  /**
   * Called when a rollback is in the log and before its call answers: where a crash leaves work
   * committed but its single-use record unfinished. Tests kill the process here.
   */
  afterCommit?: () => void
  /** Tells every listener, on every worker and host sharing the bus, that a resource changed. */
  resourceChanged: (uri: string) => void
  /** The view `service_status` is shown with (MCP Apps); undefined: none. */
  viewUri?: string | undefined
}

/** The scopes each part of the server needs: none without authentication. */
export interface OpsScopes {
  read: readonly string[] | undefined
  rollback: readonly string[] | undefined
}

export const NO_SCOPES: OpsScopes = { read: undefined, rollback: undefined }
/** With OAuth: reading needs `ops:read`; a rollback needs `ops:rollback`. */
export const OAUTH_SCOPES: OpsScopes = { read: ['ops:read'], rollback: ['ops:rollback'] }

export function runbooksUri(service: string): string {
  return `ops://runbooks/${service}`
}
