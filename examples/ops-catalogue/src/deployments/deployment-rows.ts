/**
 * @module deployment-rows
 * What the SQL deployment logs share: the row they store, its mapping to a `Deployment`, the
 * SQLite table, and the check that keeps a configured table name safe to splice into SQL.
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

/** The SQLite table of a deployment log (a file on Node, a Durable Object's storage on a Worker). */
export function sqliteDeploymentsTable(table: string): string {
  return `CREATE TABLE IF NOT EXISTS "${assertTableName(table)}" (
    service TEXT NOT NULL,
    seq INTEGER NOT NULL,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('deploy', 'rollback')),
    version TEXT NOT NULL,
    at TEXT NOT NULL,
    by TEXT NOT NULL,
    previous_version TEXT,
    note TEXT,
    request_key TEXT UNIQUE,
    PRIMARY KEY (service, seq)
  ) WITHOUT ROWID`
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
