/**
 * @module sqlite-wal-sync
 * The sync of a write-ahead log, taken off the event loop. With `synchronous = FULL` SQLite syncs
 * the WAL inside every commit, and better-sqlite3 commits on the event loop: while the disk syncs
 * (a fraction of a millisecond to several) the process serves nothing. A handle this package opens for durability
 * therefore commits with `synchronous = NORMAL` (consistent through a crash, the WAL written but
 * not synced) and then syncs the WAL file with `fdatasync` on libuv's thread pool, the same call
 * SQLite makes at a FULL commit; a write is acknowledged only once the sync that followed its
 * commit has returned. What a power loss can cost is what it costs under FULL: nothing that was
 * acknowledged. The syncs group themselves: one runs at a time, and the commits made while it runs
 * share the next one.
 *
 * A failed sync is final. After one, the kernel may have dropped the pages it could not write and
 * report the next sync as clean, and a WAL with a hole loses every frame after it on recovery:
 * every later sync fails too, and the stores that wait on it refuse their writes until restarted.
 */
import { close, fdatasync, open } from 'node:fs'

/** Commits made durable off the event loop, for the stores that must not lose a write. */
export interface WalSync {
  /** Resolves once every commit made on the handle before the call is on disk. */
  settle(): Promise<void>
  /** Waits for the sync in flight, then lets the WAL file go. */
  close(): Promise<void>
}

/** How a file's data reaches the disk: `fdatasync` on libuv's thread pool. Tests put a failing or slow one in. */
export type SyncFile = (fd: number) => Promise<void>

const fdatasyncFile: SyncFile = (fd) =>
  new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())))

/** Syncs `walPath`, the WAL of a database in WAL mode whose handle commits with `synchronous = NORMAL`. */
export function walSync(walPath: string, syncFile: SyncFile = fdatasyncFile): WalSync {
  let fd: Promise<number> | undefined
  let failure: Error | undefined
  let running: Promise<void> | undefined
  let following: Promise<void> | undefined
  let closed = false

  // Opened at the first sync, after a commit has made the file: SQLite keeps the same file (it
  // truncates or overwrites it, never replaces it) while a handle of the database is open.
  const file = (): Promise<number> => {
    fd ??= new Promise<number>((resolve, reject) =>
      open(walPath, 'r+', (error, opened) => (error ? reject(error) : resolve(opened))),
    )
    return fd
  }

  // A sync covers the commits made before it started: one made while it runs waits for the next.
  const start = (): Promise<void> => {
    const run = (failure ? Promise.reject(failure) : file().then(syncFile)).catch((error: unknown) => {
      failure ??= new Error(`the write-ahead log could not be synced: ${String(error)}`)
      throw failure
    })
    running = run
    const settled = () => {
      if (running === run) running = undefined
    }
    run.then(settled, settled)
    return run
  }

  return {
    settle() {
      if (failure) return Promise.reject(failure)
      if (closed) return Promise.reject(new Error('the write-ahead log is closed'))
      if (running === undefined) return start()
      following ??= running
        .catch(() => undefined)
        .then(() => {
          following = undefined
          return start()
        })
      return following
    },
    async close() {
      closed = true
      await Promise.allSettled([running, following])
      const opened = fd
      fd = undefined
      const handle = await opened?.catch(() => undefined)
      if (handle !== undefined) await new Promise<void>((resolve) => close(handle, () => resolve()))
    },
  }
}
