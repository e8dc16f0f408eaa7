/**
 * @module sqlite-deployment-log
 * The deployment log in a SQLite file, shared by the workers of one host. Writes run in
 * `BEGIN IMMEDIATE` transactions, so the head check and the insert hold the write lock together
 * across processes; WAL keeps reads from waiting on writes.
 */
import { randomUUID } from 'node:crypto'
import Database from 'better-sqlite3'
import {
  type AppendResult,
  type Deployment,
  type DeploymentLog,
  type NewDeployment,
  type SeedEntry,
  seedId,
  stamp,
} from './deployment-log.ts'
import {
  assertTableName,
  type DeploymentRow,
  sqliteDeploymentsTable,
  toDeployment,
} from './deployment-rows.ts'

export interface SqliteDeploymentLogOptions {
  path: string
  /** Table name (letters, digits, underscore). Default `ops_deployments`. */
  table?: string
  /** How long a write waits for another process's lock; it blocks the event loop, keep it short. */
  busyTimeoutMs?: number
}

export function sqliteDeploymentLog(options: SqliteDeploymentLogOptions): DeploymentLog {
  const table = assertTableName(options.table ?? 'ops_deployments')
  const db = new Database(options.path)
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 2000))}`)
  db.pragma('journal_mode = WAL')
  db.exec(sqliteDeploymentsTable(table))
  // A log written before request keys existed gets the column (SQLite has no ADD COLUMN IF NOT EXISTS).
  const columns = db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]
  if (!columns.some((c) => c.name === 'request_key')) {
    db.exec(`ALTER TABLE "${table}" ADD COLUMN request_key TEXT;
      CREATE UNIQUE INDEX IF NOT EXISTS "${table}_request_key" ON "${table}" (request_key)`)
  }
  const sql = {
    history: db.prepare(`SELECT * FROM "${table}" WHERE service = ? ORDER BY seq`),
    head: db.prepare(`SELECT * FROM "${table}" WHERE service = ? ORDER BY seq DESC LIMIT 1`),
    byKey: db.prepare(`SELECT * FROM "${table}" WHERE request_key = ?`),
    insert: db.prepare(
      `INSERT INTO "${table}" (service, seq, id, kind, version, at, by, previous_version, note, request_key)
       VALUES (@service, @seq, @id, @kind, @version, @at, @by, @previousVersion, @note, @requestKey)`,
    ),
  }
  const insert = (d: Deployment, requestKey?: string) =>
    sql.insert.run({
      ...d,
      previousVersion: d.previousVersion ?? null,
      note: d.note ?? null,
      requestKey: requestKey ?? null,
    })
  const byKey = (key: string) => {
    const row = sql.byKey.get(key) as DeploymentRow | undefined
    return row && toDeployment(row)
  }

  const seedTx = db.transaction((service: string, entries: readonly SeedEntry[]) => {
    if (sql.head.get(service) !== undefined) return false
    entries.forEach((e, i) => {
      insert({ id: seedId(service, i), seq: i + 1, service, ...e })
    })
    return true
  })

  const appendTx = db.transaction((entry: NewDeployment, expected: string | undefined): AppendResult => {
    const earlier = entry.requestKey === undefined ? undefined : byKey(entry.requestKey)
    if (earlier !== undefined) return { ok: true, deployment: earlier, earlier: true }
    const head = sql.head.get(entry.service) as DeploymentRow | undefined
    if (head?.id !== expected) return { ok: false, head: head && toDeployment(head) }
    const deployment = stamp(entry, randomUUID(), Number(head?.seq ?? 0) + 1, new Date())
    insert(deployment, entry.requestKey)
    return { ok: true, deployment }
  })

  return {
    seed: async (service, entries) => seedTx.immediate(service, entries),
    history: async (service) => (sql.history.all(service) as DeploymentRow[]).map(toDeployment),
    append: async (entry, expected) => appendTx.immediate(entry, expected),
    byRequestKey: async (key) => byKey(key),
    async close() {
      if (db.open) db.close()
    },
  }
}
