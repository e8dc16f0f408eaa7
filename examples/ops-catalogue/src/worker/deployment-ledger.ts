/**
 * @module deployment-ledger
 * The deployment log of the ops catalogue on Cloudflare Workers: a Durable Object every isolate
 * reaches, the log in its SQLite storage. Each method is synchronous, so a head check and the
 * append it guards (or a seed and the check that the service has no history) are one step: the
 * object runs one call at a time.
 */
import { DurableObject, type SqlStorage } from 'cloudflare:workers'
import {
  type AppendResult,
  type Deployment,
  type NewDeployment,
  type SeedEntry,
  seedId,
  stamp,
} from '../deployments/deployment-log.ts'
import { type DeploymentRow, sqliteDeploymentsTable, toDeployment } from '../deployments/deployment-rows.ts'

type Row = DeploymentRow & Record<string, string | number | null>

export class DeploymentLedger extends DurableObject {
  // Field initialisers run once the runtime's constructor has set `ctx`.
  readonly #sql = withLedgerTable(this.ctx.storage.sql)

  seed(service: string, entries: readonly SeedEntry[]): boolean {
    if (this.#head(service) !== undefined) return false
    entries.forEach((entry, n) => {
      this.#insert({ id: seedId(service, n), seq: n + 1, service, ...entry })
    })
    return true
  }

  history(service: string): Deployment[] {
    return this.#sql
      .exec<Row>('SELECT * FROM ops_deployments WHERE service = ? ORDER BY seq', service)
      .toArray()
      .map(toDeployment)
  }

  append(entry: NewDeployment, expectedHeadId: string | undefined): AppendResult {
    const earlier = entry.requestKey === undefined ? undefined : this.byRequestKey(entry.requestKey)
    if (earlier !== undefined) return { ok: true, deployment: earlier, earlier: true }
    const head = this.#head(entry.service)
    if (head?.id !== expectedHeadId) return { ok: false, head }
    const deployment = stamp(entry, crypto.randomUUID(), (head?.seq ?? 0) + 1, new Date())
    this.#insert(deployment, entry.requestKey)
    return { ok: true, deployment }
  }

  byRequestKey(requestKey: string): Deployment | undefined {
    const row = this.#sql
      .exec<Row>('SELECT * FROM ops_deployments WHERE request_key = ?', requestKey)
      .toArray()[0]
    return row === undefined ? undefined : toDeployment(row)
  }

  #head(service: string): Deployment | undefined {
    const row = this.#sql
      .exec<Row>('SELECT * FROM ops_deployments WHERE service = ? ORDER BY seq DESC LIMIT 1', service)
      .toArray()[0]
    return row === undefined ? undefined : toDeployment(row)
  }

  #insert(d: Deployment, requestKey?: string): void {
    this.#sql.exec(
      `INSERT INTO ops_deployments (service, seq, id, kind, version, at, by, previous_version, note, request_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      d.service,
      d.seq,
      d.id,
      d.kind,
      d.version,
      d.at,
      d.by,
      d.previousVersion ?? null,
      d.note ?? null,
      requestKey ?? null,
    )
  }
}

/** `sql`, once the ledger's table exists in it. */
function withLedgerTable(sql: SqlStorage): SqlStorage {
  sql.exec(sqliteDeploymentsTable('ops_deployments'))
  return sql
}
