/**
 * @module postgres-client
 * The `pg` plumbing every store of this package shares: a pool whose connects, queries and
 * statements are all time-bounded, named prepared statements, and a transaction on a connection
 * of its own. The time limit on a call and the option checks are core's
 * (`withTimeout`, `positiveInteger` from `@tessera/core/ports`).
 */
import { createHash } from 'node:crypto'
import pg from 'pg'

/**
 * A pool owned by a store (or by `postgresStores`). `statement` bounds server-side time too; the
 * bus alone passes false because its LISTEN client waits on purpose.
 */
export function createPool(
  connectionString: string | undefined,
  timeoutMs: number,
  owner: string,
  statement = true,
): pg.Pool {
  if (!connectionString) throw new TypeError(`${owner} needs a connectionString or a pool`)
  const pool = new pg.Pool({
    connectionString,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    ...(statement ? { statement_timeout: timeoutMs } : {}),
  })
  // An idle client's connection error is reported here; the next call fails on its own.
  pool.on('error', () => {})
  return pool
}

/**
 * `name` when it can be written into SQL as a quoted identifier: a letter or underscore, then
 * letters, digits and underscores, `maxLength` at most (PostgreSQL keeps 63 bytes; a store that
 * derives more names from one passes less). A TypeError naming it otherwise.
 */
export function sqlIdentifier(name: string, what: string, maxLength = 63): string {
  const pattern = new RegExp(`^[A-Za-z_][A-Za-z0-9_]{0,${maxLength - 1}}$`)
  if (typeof name !== 'string' || !pattern.test(name)) throw new TypeError(`invalid ${what} name: ${name}`)
  return name
}

/** A statement PostgreSQL parses and plans once per connection, then runs by name. */
export interface PreparedStatement {
  readonly name: string
  readonly text: string
}

/**
 * Names `texts` as prepared statements of one table. The name carries a digest of the table's name,
 * so the statements of two tables on one pool never share a name (PostgreSQL would truncate a
 * long table name past 63 bytes, and two could meet).
 */
export function prepared<K extends string>(
  owner: string,
  table: string,
  texts: Record<K, string>,
): Record<K, PreparedStatement> {
  const tag = createHash('sha256').update(table).digest('hex').slice(0, 16)
  const out = {} as Record<K, PreparedStatement>
  for (const key of Object.keys(texts) as K[]) out[key] = { name: `${owner}_${key}_${tag}`, text: texts[key] }
  return out
}

/** BEGIN … COMMIT on a client of its own; on any failure the connection is dropped, never reused mid-transaction. */
export async function transaction<T>(pool: pg.Pool, body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const result = await body(client)
    await client.query('COMMIT')
    client.release()
    return result
  } catch (error) {
    client.release(error instanceof Error ? error : true)
    throw error
  }
}
