import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { type SyncFile, walSync } from './sqlite-wal-sync.ts'

const dir = mkdtempSync(join(tmpdir(), 'tessera-wal-sync-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0

function walFile(): string {
  const path = join(dir, `w${files++}.db-wal`)
  writeFileSync(path, 'frames')
  return path
}

/** A sync the test finishes by hand, and the descriptors it was asked for. */
function heldSyncs() {
  const finishes: Array<(error?: Error) => void> = []
  const fds: number[] = []
  const syncFile: SyncFile = (fd) => {
    fds.push(fd)
    return new Promise<void>((resolve, reject) => {
      finishes.push((error) => (error ? reject(error) : resolve()))
    })
  }
  // The file is opened before the first sync: wait until the sync has been asked for.
  const asked = async (count: number) => {
    for (let i = 0; i < 100 && finishes.length < count; i++) await new Promise((r) => setTimeout(r, 1))
    expect(finishes).toHaveLength(count)
  }
  return { syncFile, finishes, fds, asked }
}

/** A sync of a new WAL file, its first sync asked for and held. */
async function firstSyncHeld() {
  const held = heldSyncs()
  const sync = walSync(walFile(), held.syncFile)
  const first = sync.settle()
  await held.asked(1)
  return { held, sync, first }
}

const settledState = async (promise: Promise<unknown>) => {
  let state = 'pending'
  promise.then(
    () => {
      state = 'resolved'
    },
    () => {
      state = 'rejected'
    },
  )
  await new Promise((r) => setTimeout(r, 5))
  return state
}

describe('walSync', () => {
  it('answersOnlyOnceTheSyncAfterTheCallHasReturned', async () => {
    const { held, sync, first: settled } = await firstSyncHeld()
    expect(held.fds[0]).toBeTypeOf('number')
    expect(await settledState(settled)).toBe('pending')
    held.finishes[0]!()
    await expect(settled).resolves.toBeUndefined()
    await sync.close()
  })

  it('givesTheCallsMadeWhileASyncRunsOneSyncAfterIt', async () => {
    const { held, sync, first } = await firstSyncHeld()
    // Commits made while the first sync runs may have missed it: they wait for one started after.
    const later = [sync.settle(), sync.settle(), sync.settle()]
    held.finishes[0]!()
    await first
    expect(await settledState(Promise.all(later))).toBe('pending')
    await held.asked(2)
    held.finishes[1]!()
    await Promise.all(later)
    expect(held.finishes).toHaveLength(2)
    expect(held.fds[1]).toBe(held.fds[0])
    await sync.close()
  })

  it('refusesEveryLaterCallOnceASyncHasFailed', async () => {
    const { held, sync, first } = await firstSyncHeld()
    const waiting = sync.settle()
    held.finishes[0]!(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }))
    await expect(first).rejects.toThrow('the write-ahead log could not be synced: Error: EIO: i/o error')
    await expect(waiting).rejects.toThrow('could not be synced')
    // A sync after a failed one may report pages the kernel dropped as clean: none is tried.
    await expect(sync.settle()).rejects.toThrow('could not be synced')
    expect(held.finishes).toHaveLength(1)
    await sync.close()
  })

  it('refusesWhenTheWalCannotBeOpened', async () => {
    const sync = walSync(join(dir, 'missing', 'x.db-wal'))
    await expect(sync.settle()).rejects.toThrow(/could not be synced: Error: ENOENT/)
    await sync.close()
  })

  it('closesOnlyAfterTheSyncInFlightAndRefusesCallsAfter', async () => {
    const { held, sync, first: settled } = await firstSyncHeld()
    const closed = sync.close()
    expect(await settledState(closed)).toBe('pending')
    held.finishes[0]!()
    await settled
    await closed
    await expect(sync.settle()).rejects.toThrow('the write-ahead log is closed')
  })

  it('syncsARealFileWithFdatasync', async () => {
    const sync = walSync(walFile())
    await expect(Promise.all([sync.settle(), sync.settle()])).resolves.toEqual([undefined, undefined])
    await sync.close()
  })
})
