/**
 * @module sqlite-group-commit
 * Group commit for a store's writes. With `synchronous = FULL` every commit waits for the disk, and
 * that wait, not SQLite, is what a single-use claim costs. The writes asked for in one turn of the
 * event loop therefore run together in one `BEGIN IMMEDIATE` transaction, and one sync of the WAL
 * covers them all. Each write still sees the ones queued before it (they run in order, under the
 * write lock), and its result is released only once the transaction has committed: a caller never
 * acts on a claim the disk does not hold. A failed commit fails every write of its group. On a
 * handle whose WAL is synced off the event loop (sqlite-wal-sync.ts), the transaction commits
 * without the sync and the group's results wait for the WAL's next sync instead: the event loop
 * serves on while the disk works, and the groups committed meanwhile share the sync after it.
 */
import type Database from 'better-sqlite3'
import { type DurableWrites, durableWrites } from './sqlite-connection.ts'

export interface GroupCommit {
  /** Runs `body` in the next group's transaction; resolves once that transaction is on disk. */
  write<T>(operation: string, body: () => T): Promise<T>
  /** Runs the queued writes now (before the database closes). */
  flush(): void
}

interface Pending {
  operation: string
  body: () => unknown
  resolve(value: unknown): void
  reject(error: unknown): void
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

/**
 * Writes on `db`, grouped per turn of the event loop; `toError` names what failed. `durable`: what
 * a group's results pass through before they are released (the handle's own, by default).
 */
export function groupCommit(
  db: Database.Database,
  toError: (operation: string, error: unknown) => Error,
  durable: DurableWrites = durableWrites(db),
): GroupCommit {
  let queue: Pending[] = []
  let scheduled = false

  const runGroup = db.transaction((group: Pending[], outcomes: Outcome[]) => {
    for (const write of group) {
      try {
        outcomes.push({ ok: true, value: write.body() })
      } catch (error) {
        // A statement that fails alone leaves the others' writes standing; one that made SQLite
        // roll the whole transaction back (a full disk, an I/O error) fails the group.
        if (!db.inTransaction) throw error
        outcomes.push({ ok: false, error })
      }
    }
  })

  const flush = (): void => {
    scheduled = false
    const group = queue
    queue = []
    if (group.length === 0) return
    const outcomes: Outcome[] = []
    try {
      runGroup.immediate(group, outcomes)
    } catch (error) {
      for (const write of group) write.reject(toError(write.operation, error))
      return
    }
    durable(outcomes).then(
      (settled) => settle(group, settled),
      (error: unknown) => {
        for (const write of group) write.reject(toError(write.operation, error))
      },
    )
  }

  const settle = (group: Pending[], outcomes: Outcome[]): void => {
    group.forEach((write, i) => {
      const outcome = outcomes[i]!
      if (outcome.ok) write.resolve(outcome.value)
      else write.reject(toError(write.operation, outcome.error))
    })
  }

  return {
    write<T>(operation: string, body: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ operation, body, resolve: resolve as (value: unknown) => void, reject })
        if (!scheduled) {
          scheduled = true
          // After the I/O callbacks of this turn: every request read in it joins the group.
          setImmediate(flush)
        }
      })
    },
    flush,
  }
}
