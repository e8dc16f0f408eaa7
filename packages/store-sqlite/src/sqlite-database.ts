/**
 * @module sqlite-database
 * Opening a database file the way every Tessera SQLite store does, so several stores (and several
 * processes) can share one file: busy_timeout first, because switching to WAL needs a lock another
 * process may hold right now; then WAL; then the durability the store asks for.
 */
import Database from 'better-sqlite3'

export type Synchronous = 'FULL' | 'NORMAL'

export function openDatabase(
  path: string,
  busyTimeoutMs: number,
  synchronous: Synchronous,
): Database.Database {
  const db = new Database(path)
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`)
    db.pragma('journal_mode = WAL')
    db.pragma(`synchronous = ${synchronous === 'FULL' ? 'FULL' : 'NORMAL'}`)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

export function positive(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer.`)
  return value
}
