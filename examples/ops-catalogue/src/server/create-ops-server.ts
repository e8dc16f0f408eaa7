/**
 * @module create-ops-server
 * Builds the ops catalogue MCP server from its parts. Transports, stores and keys are chosen by
 * the caller (main, or a test), so the same server runs over HTTP, stdio, one worker or several.
 */

import { appsExtension } from '@tessera/apps'
import { createServer, type Logger, type McpServer, type RateLimitOptions, type Stores } from '@tessera/core'
import type { StateKey } from '@tessera/core/request-state'
import { skillsExtension } from '@tessera/skills'
import type { Catalogue } from '../catalogue/catalogue.ts'
import type { DeploymentLog } from '../deployments/deployment-log.ts'
import { reseedingLog } from '../deployments/reseeding-log.ts'
import { registerIncidentTriage } from '../prompts/incident-triage.ts'
import { registerCatalogueResource } from '../resources/catalogue-resource.ts'
import { registerRunbooksResource } from '../resources/runbooks-resource.ts'
import { runbookSkills } from '../skills/runbook-skills.ts'
import { registerDeploymentHistory } from '../tools/deployment-history.ts'
import { registerRollback } from '../tools/rollback.ts'
import { registerServiceStatus } from '../tools/service-status.ts'
import { OPS_VIEW_URI, opsView } from '../view/ops-view.ts'
import { NO_SCOPES, type OpsDeps, type OpsScopes } from './ops-deps.ts'

export const SERVER_NAME = 'ops-catalogue'
export const SERVER_VERSION = '1.0.0'

export interface OpsServerOptions {
  catalogue: Catalogue
  log: DeploymentLog
  /**
   * Single-use records of answered rollbacks, their tasks, 2025-11-25 sessions and stream events, and the bus
   * between workers: every worker and host must share them.
   */
  stores: Stores
  /** requestState keys; every worker and host must share them. The first one seals. */
  stateKeys: readonly StateKey[]
  logger: Logger
  /** What the framework logs (refused states, duplicates); default: `logger`. */
  frameworkLogger?: Logger
  /** The scopes reads and rollbacks need (with OAuth); default: none. */
  scopes?: OpsScopes
  /** How long a rollback takes to roll out (default 0: at once; `npm start` takes 3 s). */
  rollbackMs?: number
  /**
   * How long an accepted answer, or the rollback task it became, stays held by a worker that
   * stopped renewing (default 15 s): after it, a retry or a read of the task settles it.
   */
  leaseMs?: number
  /** See `OpsDeps.afterCommit`. */
  afterCommit?: () => void
  /** The page of the view shown beside `service_status` (MCP Apps); default: no view. */
  view?: string
  /** Rate limits, kept in `stores.rateLimits`; default: none. */
  rateLimits?: RateLimitOptions
}

const INSTRUCTIONS = [
  'Operations catalogue: services with their owner, tier, health and deployment history, plus runbooks.',
  'Read ops://catalogue for the list of services; ops://runbooks/{service} (also the skill skill://runbooks/{service}) holds what to do when one misbehaves.',
  'rollback changes production: call it without `version` so that a person is asked to confirm and choose the version.',
].join(' ')

export function createOpsServer(options: OpsServerOptions): McpServer {
  const app = createServer({
    name: SERVER_NAME,
    version: SERVER_VERSION,
    title: 'Ops catalogue',
    description: 'Service status, deployment history, runbooks and a rollback that asks before it acts.',
    instructions: INSTRUCTIONS,
    // The tool list is the same for everyone and changes only with a release.
    cache: { toolsList: { ttlMs: 60_000, cacheScope: 'public' } },
    requestState: { keys: options.stateKeys },
    stores: options.stores,
    logger: options.frameworkLogger ?? options.logger,
    // The runbooks, also as skills (read with the scope of ops://runbooks/{service}); the view, once built.
    extensions: [
      skillsExtension({ skills: runbookSkills(options.catalogue), scopes: options.scopes?.read ?? [] }),
      ...(options.view === undefined ? [] : [appsExtension({ views: [opsView(options.view)] })]),
    ],
    ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
    ...(options.leaseMs === undefined
      ? {}
      : { singleUse: { leaseMs: options.leaseMs }, tasks: { leaseMs: options.leaseMs } }),
  })
  const deps: OpsDeps = {
    catalogue: options.catalogue,
    log: reseedingLog(options.log, options.catalogue, options.logger),
    logger: options.logger,
    scopes: options.scopes ?? NO_SCOPES,
    rollbackMs: options.rollbackMs ?? 0,
    ...(options.afterCommit === undefined ? {} : { afterCommit: options.afterCommit }),
    resourceChanged: (uri) => app.notifyResourceUpdated(uri),
    viewUri: options.view === undefined ? undefined : OPS_VIEW_URI,
  }
  registerServiceStatus(app, deps)
  registerDeploymentHistory(app, deps)
  registerRollback(app, deps)
  registerCatalogueResource(app, deps)
  registerRunbooksResource(app, deps)
  registerIncidentTriage(app, deps)
  return app
}
