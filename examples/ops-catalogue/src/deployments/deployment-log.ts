/**
 * @module deployment-log
 * The port every deployment log implements: the mutable half of the catalogue. It is append-only,
 * ordered per service by `seq`, and its last entry is the service's current version. An append
 * names the head it was decided against, so two rollbacks decided on the same picture cannot
 * both land: the second is told what the head has become.
 */

export type DeploymentKind = 'deploy' | 'rollback'

export interface Deployment {
  /** `seed:<service>:<n>` for entries from ops.json, a UUID for entries written by this server. */
  id: string
  /** Position in the service's history, 1-based, increasing. */
  seq: number
  service: string
  kind: DeploymentKind
  version: string
  /** ISO-8601. */
  at: string
  by: string
  /** For a rollback: the version it replaced. */
  previousVersion?: string
  note?: string
}

export interface NewDeployment {
  service: string
  kind: DeploymentKind
  version: string
  by: string
  previousVersion?: string
  note?: string
  /**
   * The idempotency key of the accepted answer that asked for this entry (`ctx.request.idempotencyKey`),
   * stored with it in the same step: a second append under the key writes nothing and returns
   * the first entry. Never shown: it is the log's own bookkeeping.
   */
  requestKey?: string
}

export interface SeedEntry {
  kind: DeploymentKind
  version: string
  at: string
  by: string
  note?: string
}

/** `earlier`: the request key was already in the log; `deployment` is the entry written then. */
export type AppendResult =
  | { ok: true; deployment: Deployment; earlier?: true }
  | { ok: false; head: Deployment | undefined }

export interface DeploymentLog {
  /** Writes `entries` as the service's history if, and only if, the service has none yet. */
  seed(service: string, entries: readonly SeedEntry[]): Promise<boolean>
  /** The whole history of a service, oldest first. */
  history(service: string): Promise<Deployment[]>
  /**
   * Appends `entry` if the service's last entry is still `expectedHeadId` (check and write are one
   * step); otherwise returns the head found instead.
   */
  append(entry: NewDeployment, expectedHeadId: string | undefined): Promise<AppendResult>
  /** The entry appended under `requestKey`, if any. */
  byRequestKey(requestKey: string): Promise<Deployment | undefined>
  close(): Promise<void>
}

/** Builds the stored row of an appended entry (without its request key); every backend stamps entries the same way. */
export function stamp(entry: NewDeployment, id: string, seq: number, at: Date): Deployment {
  const row: Deployment = {
    id,
    seq,
    service: entry.service,
    kind: entry.kind,
    version: entry.version,
    at: at.toISOString(),
    by: entry.by,
  }
  if (entry.previousVersion !== undefined) row.previousVersion = entry.previousVersion
  if (entry.note !== undefined) row.note = entry.note
  return row
}

export function seedId(service: string, index: number): string {
  return `seed:${service}:${index + 1}`
}
