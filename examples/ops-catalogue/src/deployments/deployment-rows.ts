/**
 * @module deployment-rows
 * What the two SQL deployment logs share: the row they store, its mapping to a `Deployment`,
 * and the check that keeps a configured table name safe to splice into SQL.
 */
import type { Deployment, DeploymentKind } from './deployment-log.ts'

export interface DeploymentRow {
  id: string
  /** PostgreSQL returns bigint as a string. */
  seq: string | number
  service: string
  kind: DeploymentKind
  version: string
  at: string
  by: string
  previous_version: string | null
  note: string | null
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/

export function assertTableName(table: string): string {
  if (!IDENTIFIER.test(table)) throw new TypeError(`invalid table name: ${table}`)
  return table
}

export function toDeployment(row: DeploymentRow): Deployment {
  const d: Deployment = {
    id: row.id,
    seq: Number(row.seq),
    service: row.service,
    kind: row.kind,
    version: row.version,
    at: row.at,
    by: row.by,
  }
  if (row.previous_version !== null) d.previousVersion = row.previous_version
  if (row.note !== null) d.note = row.note
  return d
}
