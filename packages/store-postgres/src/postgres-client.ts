/**
 * @module postgres-client
 * The `pg` plumbing every store of this package shares: a pool whose connects, queries and
 * statements are all time-bounded, a time limit on any call, and option checks.
 */
import pg from 'pg'

/**
 * A pool owned by a store. `statement` bounds server-side time too; the bus passes false because
 * its LISTEN client waits on purpose.
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

/** Rejects when `promise` takes longer than `ms`, so an unreachable database never hangs a request. */
export function withTimeout<T>(operation: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${operation} timed out after ${ms} ms`)), ms)
    timer.unref()
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

export function positive(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer.`)
  return value
}
