/**
 * On a handle opened for FULL, the stores that keep what they acknowledge answer a write only once
 * the WAL's sync after it has returned: with that sync refusing, their writes are refused, and a
 * rate-limit take, which keeps nothing a power loss could turn into a second action, still answers.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sampleSession } from '../../../test/contracts/session-store-contract.ts'
import { sampleTask } from '../../../test/contracts/task-store-contract.ts'
import { openConnection, walSyncOf } from './sqlite-connection.ts'
import { sqliteEventStore } from './sqlite-event-store.ts'
import { sqliteRateLimitStore } from './sqlite-rate-limit-store.ts'
import { sqliteReplayStore } from './sqlite-replay-store.ts'
import { sqliteSessionStore } from './sqlite-session-store.ts'
import { sqliteTaskStore } from './sqlite-task-store.ts'

const dir = mkdtempSync(join(tmpdir(), 'tessera-durable-writes-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0

/** A handle opened for FULL on a file, and a way to make its WAL's sync refuse from now on. */
function fullHandle() {
  const connection = openConnection({ path: join(dir, `d${files++}.db`) }, 'test', { synchronous: 'FULL' })
  const sync = walSyncOf(connection.db)
  if (sync === undefined) throw new Error('a FULL handle on a file syncs its WAL off the event loop')
  return { ...connection, refuseSyncs: () => sync.close() }
}

const SYNC_REFUSED = /the write-ahead log is closed/

describe('writes on a handle whose WAL is synced off the event loop', () => {
  it('answersAClaimOnlyOnceItsWalIsSynced', async () => {
    const { db, release, refuseSyncs } = fullHandle()
    const store = sqliteReplayStore({ database: db })
    const epoch = await store.epoch()
    await expect(store.claim('k1', 'roll back', 15_000, 60_000, { epoch })).resolves.toMatchObject({
      kind: 'claimed',
    })
    await refuseSyncs()
    // A store error: the client reads a fixed sentence, the logs read why.
    const refused = { name: 'SingleUseStoreError', detail: expect.stringMatching(SYNC_REFUSED) }
    await expect(store.claim('k2', 'roll back', 15_000, 60_000, { epoch })).rejects.toMatchObject(refused)
    await expect(store.epoch()).rejects.toMatchObject(refused)
    await release()
  })

  it('answersATaskSessionOrEventWriteOnlyOnceItsWalIsSynced', async () => {
    const { db, release, refuseSyncs } = fullHandle()
    const tasks = sqliteTaskStore({ database: db })
    const sessions = sqliteSessionStore({ database: db })
    const events = sqliteEventStore({ database: db })
    await expect(tasks.create(sampleTask())).resolves.toBe('created')
    await expect(sessions.create(sampleSession())).resolves.toBe(true)
    await expect(events.append('stream-1', { jsonrpc: '2.0', method: 'x' })).resolves.toBeTypeOf('string')
    await refuseSyncs()
    await expect(tasks.create(sampleTask())).rejects.toThrow(SYNC_REFUSED)
    await expect(sessions.create(sampleSession())).rejects.toThrow(SYNC_REFUSED)
    await expect(events.append('stream-1', { jsonrpc: '2.0', method: 'y' })).rejects.toThrow(SYNC_REFUSED)
    await expect(events.finish('stream-1')).rejects.toThrow(SYNC_REFUSED)
    await Promise.all([tasks.close(), sessions.close(), events.close()])
    await release()
  })

  it('answersARateLimitTakeWithoutWaitingForTheWal', async () => {
    const { db, release, refuseSyncs } = fullHandle()
    const limits = sqliteRateLimitStore({ database: db })
    await refuseSyncs()
    await expect(limits.take('caller', { capacity: 2, refillMs: 1000 })).resolves.toMatchObject({
      allowed: true,
    })
    await limits.close()
    await release()
  })
})
