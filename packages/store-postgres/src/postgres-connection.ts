/**
 * @module postgres-connection
 * How every store of this package reaches PostgreSQL, and the `pg` plumbing they share: the pool a
 * store opens (its connects, queries and statements all time-bounded) or the caller's pool it
 * borrows and leaves open, the tables a store creates on its first call, named prepared
 * statements, and a transaction on a connection of its own. The time limit on a call and the
 * option checks are core's (`withTimeout`, `positiveInteger` from `@tessera/core/ports`).
 */
import { createHash } from 'node:crypto'
import type { OptionNames } from '@tessera/core/ports'
import pg from 'pg'

/** Where the stores keep their data: the options every factory of this package takes. */
export interface ConnectionOptions {
  /** Connection string; the pool is the store's own, ended with it (in a bundle, with the last store). */
  connectionString?: string
  /** An existing pool, used and left open. */
  pool?: pg.Pool
}

/** The names of `ConnectionOptions`, part of every factory's own list. */
export const CONNECTION_OPTION_NAMES = {
  connectionString: true,
  pool: true,
} as const satisfies OptionNames<ConnectionOptions>

/** The pool a store works on; `release` ends it when the store opened it, once. */
export interface StoreConnection {
  pool: pg.Pool
  release(): Promise<void>
}

/**
 * The pool `options` name: the one given, or a pool on `connectionString` whose connects and
 * queries are bounded by `timeoutMs`, and its statements too unless `statementTimeout` is false
 * (the bus's LISTEN client waits on purpose). `owner` names the factory in the TypeError of a
 * missing connection string.
 */
export function openConnection(
  options: ConnectionOptions,
  owner: string,
  settings: { timeoutMs: number; statementTimeout?: boolean },
): StoreConnection {
  if (options.pool !== undefined) return { pool: options.pool, release: async () => {} }
  if (!options.connectionString) throw new TypeError(`${owner} needs a connectionString or a pool`)
  const { timeoutMs } = settings
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    ...(settings.statementTimeout === false ? {} : { statement_timeout: timeoutMs }),
  })
  // An idle client's connection error is reported here; the next call fails on its own.
  pool.on('error', () => {})
  let released: Promise<void> | undefined
  return { pool, release: () => (released ??= pool.end().catch(() => undefined)) }
}

/**
 * A store's step that creates its tables (`create`, idempotent): run by the first call, and again
 * by the next one after a failure, never once it succeeded.
 */
export function prepareSchema(pool: pg.Pool, create: string): () => Promise<void> {
  let ready: Promise<void> | undefined
  return () => {
    ready ??= pool.query(create).then(
      () => undefined,
      (error: unknown) => {
        ready = undefined
        throw error
      },
    )
    return ready
  }
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
