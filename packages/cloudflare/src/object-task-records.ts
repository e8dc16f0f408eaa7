/**
 * @module object-task-records
 * The tasks inside the Durable Object, in its SQLite storage: one row per task with its JSON, its
 * version, its owner and when it may be forgotten (NULL for never). Every method is synchronous,
 * so counting an owner's tasks and inserting one, or comparing a version and replacing, is one
 * atomic step: the object runs one call at a time.
 */
import type { SqlStorage } from 'cloudflare:workers'
import type { TaskCreation, TaskLimits, TaskRecord } from '@tessera/core/ports'

const LIVE = '(expires_at IS NULL OR expires_at > ?)'

export class ObjectTaskRecords {
  readonly #sql: SqlStorage

  constructor(sql: SqlStorage) {
    this.#sql = sql
    sql.exec(`CREATE TABLE IF NOT EXISTS tessera_tasks (
      id TEXT PRIMARY KEY NOT NULL,
      version INTEGER NOT NULL,
      owner TEXT NOT NULL,
      expires_at INTEGER,
      data TEXT NOT NULL
    )`)
    sql.exec('CREATE INDEX IF NOT EXISTS tessera_tasks_expires_at ON tessera_tasks (expires_at)')
    sql.exec('CREATE INDEX IF NOT EXISTS tessera_tasks_owner_expires_at ON tessera_tasks (owner, expires_at)')
  }

  create(task: TaskRecord, limits?: TaskLimits): TaskCreation {
    const now = Date.now()
    this.#sql.exec('DELETE FROM tessera_tasks WHERE expires_at IS NOT NULL AND expires_at <= ?', now)
    if (this.#sql.exec('SELECT 1 FROM tessera_tasks WHERE id = ?', task.id).toArray().length > 0)
      return 'taken'
    const max = limits?.maxPerOwner
    if (max !== undefined) {
      const owned = this.#sql
        .exec<{ n: number }>(
          `SELECT count(*) AS n FROM tessera_tasks WHERE owner = ? AND ${LIVE}`,
          task.owner,
          now,
        )
        .one().n
      if (owned >= max) return 'owner-full'
    }
    this.#sql.exec(
      'INSERT INTO tessera_tasks (id, version, owner, expires_at, data) VALUES (?, ?, ?, ?, ?)',
      task.id,
      task.version,
      task.owner,
      task.expiresAt,
      JSON.stringify(task),
    )
    return 'created'
  }

  get(id: string): TaskRecord | undefined {
    const row = this.#sql
      .exec<{ data: string }>(`SELECT data FROM tessera_tasks WHERE id = ? AND ${LIVE}`, id, Date.now())
      .toArray()[0]
    return row === undefined ? undefined : (JSON.parse(row.data) as TaskRecord)
  }

  replace(id: string, version: number, next: TaskRecord): boolean {
    return (
      this.#sql.exec(
        `UPDATE tessera_tasks SET version = ?, owner = ?, expires_at = ?, data = ?
         WHERE id = ? AND version = ? AND ${LIVE}`,
        next.version,
        next.owner,
        next.expiresAt,
        JSON.stringify(next),
        id,
        version,
        Date.now(),
      ).rowsWritten > 0
    )
  }
}
