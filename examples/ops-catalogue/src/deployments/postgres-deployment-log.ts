/**
 * @module postgres-deployment-log
 * The deployment log in PostgreSQL, for several hosts. Seeding and appending take a transaction
 * advisory lock per service, so the head check and the insert are one step for every host; the
 * (service, seq) key would refuse a lost race anyway, the lock just makes it a wait, not an error.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import {
  type AppendResult,
  type Deployment,
  type DeploymentLog,
  type NewDeployment,
  seedId,
  stamp,
} from './deployment-log.ts'
import { assertTableName, type DeploymentRow, toDeployment } from './deployment-rows.ts'

export interface PostgresDeploymentLogOptions {
  connectionString: string
  /** Table name (letters, digits, underscore), created if missing. Default `ops_deployments`. */
  table?: string
}

export function postgresDeploymentLog(options: PostgresDeploymentLogOptions): DeploymentLog {
  const table = assertTableName(options.table ?? 'ops_deployments')
  const t = `"${table}"`
  // Every call is bounded, on the client and on the server: a stalled database gives a clear
  // error within seconds, never a hang.
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    connectionTimeoutMillis: 5000,
    query_timeout: 5000,
    statement_timeout: 5000,
    max: 5,
  })
  pool.on('error', () => {})
  let ready: Promise<void> | undefined

  // IF NOT EXISTS alone is not safe when several workers create the table at once.
  const ensureTable = (): Promise<void> => {
    ready ??= pool
      .query(`SELECT pg_advisory_xact_lock(hashtext('ops_catalogue_create:${table}'));
        CREATE TABLE IF NOT EXISTS ${t} (
          service text NOT NULL,
          seq bigint NOT NULL,
          id text NOT NULL UNIQUE,
          kind text NOT NULL CHECK (kind IN ('deploy', 'rollback')),
          version text NOT NULL,
          at text NOT NULL,
          by text NOT NULL,
          previous_version text,
          note text,
          request_key text UNIQUE,
          PRIMARY KEY (service, seq)
        );
        ALTER TABLE ${t} ADD COLUMN IF NOT EXISTS request_key text UNIQUE;`)
      .then(
        () => undefined,
        (error: unknown) => {
          ready = undefined
          throw error
        },
      )
    return ready
  }

  const locked = async <T>(service: string, body: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    await ensureTable()
    const client = await pool.connect()
    try {
      await client.query('BEGIN')
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${table}:${service}`])
      const result = await body(client)
      await client.query('COMMIT')
      return result
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined)
      throw error
    } finally {
      client.release()
    }
  }

  const insert = (client: pg.PoolClient, d: Deployment, requestKey?: string) =>
    client.query(
      `INSERT INTO ${t} (service, seq, id, kind, version, at, by, previous_version, note, request_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
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
      ],
    )

  const byKey = async (client: pg.Pool | pg.PoolClient, key: string): Promise<Deployment | undefined> => {
    const row = (await client.query<DeploymentRow>(`SELECT * FROM ${t} WHERE request_key = $1`, [key]))
      .rows[0]
    return row && toDeployment(row)
  }

  const head = async (client: pg.PoolClient, service: string): Promise<Deployment | undefined> => {
    const row = (
      await client.query<DeploymentRow>(`SELECT * FROM ${t} WHERE service = $1 ORDER BY seq DESC LIMIT 1`, [
        service,
      ])
    ).rows[0]
    return row && toDeployment(row)
  }

  return {
    seed: (service, entries) =>
      locked(service, async (client) => {
        if ((await head(client, service)) !== undefined) return false
        for (const [i, e] of entries.entries())
          await insert(client, { id: seedId(service, i), seq: i + 1, service, ...e })
        return true
      }),
    async history(service) {
      await ensureTable()
      return (
        await pool.query<DeploymentRow>(`SELECT * FROM ${t} WHERE service = $1 ORDER BY seq`, [service])
      ).rows.map(toDeployment)
    },
    append: (entry: NewDeployment, expected): Promise<AppendResult> =>
      locked(entry.service, async (client) => {
        const earlier = entry.requestKey === undefined ? undefined : await byKey(client, entry.requestKey)
        if (earlier !== undefined) return { ok: true, deployment: earlier, earlier: true }
        const current = await head(client, entry.service)
        if (current?.id !== expected) return { ok: false, head: current }
        const deployment = stamp(entry, randomUUID(), (current?.seq ?? 0) + 1, new Date())
        await insert(client, deployment, entry.requestKey)
        return { ok: true, deployment }
      }),
    async byRequestKey(key) {
      await ensureTable()
      return byKey(pool, key)
    },
    async close() {
      await pool.end().catch(() => undefined)
    },
  }
}
