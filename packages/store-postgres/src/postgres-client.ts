/**
 * @module postgres-client
 * The `pg` plumbing every store of this package shares: a pool whose connects, queries and
 * statements are all time-bounded. The time limit on a call and the option checks are core's
 * (`withTimeout`, `positiveInteger` from `@tessera/core/ports`).
 */
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
