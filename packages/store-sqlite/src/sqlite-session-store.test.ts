/**
 * @module sqlite-session-store.test
 * The SessionStore contract, run against the SQLite store on a temporary file (each store on its
 * own table, so the session count of one test never sees another's) and in memory, plus what
 * only this store has: two stores on one file as two processes would be, then two real processes
 * applying changes to one session at once, idle rows deleted, a change that is not a use, and
 * one file shared with the single-use store.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { describeSessionStore, sampleSession } from '../../../test/contracts/session-store-contract.ts'
import { sqliteReplayStore } from './sqlite-replay-store.ts'
import { sqliteSessionStore } from './sqlite-session-store.ts'

const dir = mkdtempSync(join(tmpdir(), 'tessera-sqlite-sessions-'))
const path = join(dir, 'sessions.db')
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let tables = 0
const freshTable = () => `sessions_${++tables}`

describeSessionStore('sqlite file', (options) =>
  sqliteSessionStore({ path, table: freshTable(), ...options }),
)
describeSessionStore('sqlite :memory:', (options) => sqliteSessionStore({ path: ':memory:', ...options }))

/** The raw row of a session, read on a connection of its own. */
function rawRow(table: string, id: string): { data: string; last_seen: number } | undefined {
  const raw = new Database(path, { readonly: true })
  try {
    return raw.prepare(`SELECT data, last_seen FROM "${table}" WHERE id = ?`).get(id) as
      | { data: string; last_seen: number }
      | undefined
  } finally {
    raw.close()
  }
}

describe('sqliteSessionStore', () => {
  it('sharesSessionsBetweenTwoStoresOnOneFileTwoProcesses', async () => {
    const table = freshTable()
    const a = sqliteSessionStore({ path, table })
    const b = sqliteSessionStore({ path, table })
    const session = sampleSession({ subscriptions: ['file:///a'] })
    expect(await a.create(session)).toBe(true)
    expect(await b.get(session.id)).toEqual(session)
    await b.apply(session.id, { kind: 'log-level', level: 'debug' })
    expect((await a.get(session.id))?.logLevel).toBe('debug')
    expect(await b.delete(session.id)).toBe(true)
    expect(await a.get(session.id)).toBeUndefined()
    expect(await a.apply(session.id, { kind: 'initialized' })).toBeUndefined()
    await Promise.all([a.close(), b.close()])
  })

  it('keepsEveryChangeAppliedAtOnceThroughTwoStores', async () => {
    const table = freshTable()
    const a = sqliteSessionStore({ path, table })
    const b = sqliteSessionStore({ path, table })
    const session = sampleSession()
    await a.create(session)
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).apply(session.id, { kind: 'subscribe', uri: `config://${i}` }),
      ),
    )
    const expected = Array.from({ length: 20 }, (_, i) => `config://${i}`).sort()
    expect((await a.get(session.id))?.subscriptions.slice().sort()).toEqual(expected)
    expect((await b.get(session.id))?.subscriptions.slice().sort()).toEqual(expected)
    await Promise.all([a.close(), b.close()])
  })

  it('keepsEveryChangeAppliedAtOnceByTwoRealProcesses', async () => {
    const table = freshTable()
    const store = sqliteSessionStore({ path, table })
    const session = sampleSession()
    await store.create(session)
    const perWorker = 150
    const workers = [0, 1].map(
      (n) =>
        new ChangeWorker(`
          const { sqliteSessionStore } = await import(${JSON.stringify(STORE_URL)})
          const store = sqliteSessionStore({ path: ${JSON.stringify(path)}, table: ${JSON.stringify(table)} })
          await ready()
          for (let i = 0; i < ${perWorker}; i++) {
            await store.apply(${JSON.stringify(session.id)}, { kind: 'subscribe', uri: 'config://${n}/' + i })
          }
          await store.close()
        `),
    )
    await Promise.all(workers.map((worker) => worker.ready))
    for (const worker of workers) worker.go()
    await Promise.all(workers.map((worker) => worker.done))
    const expected = [0, 1].flatMap((n) => Array.from({ length: perWorker }, (_, i) => `config://${n}/${i}`))
    expect((await store.get(session.id))?.subscriptions.slice().sort()).toEqual(expected.sort())
    await store.close()
  }, 30_000)

  it('refreshesLastSeenOnGetNotOnApply', async () => {
    const table = freshTable()
    const store = sqliteSessionStore({ path, table })
    const session = sampleSession()
    await store.create(session)
    const created = rawRow(table, session.id)!.last_seen
    await sleep(20)
    await store.apply(session.id, { kind: 'initialized' })
    expect(rawRow(table, session.id)).toMatchObject({ last_seen: created })
    expect(JSON.parse(rawRow(table, session.id)!.data)).toMatchObject({ initialized: true })
    await store.get(session.id)
    expect(rawRow(table, session.id)!.last_seen).toBeGreaterThan(created)
    await store.close()
  })

  it('deletesAnIdleRowWhenItIsReadOrChangedAndNeverBringsItBack', async () => {
    const table = freshTable()
    const store = sqliteSessionStore({ path, table, idleMs: 50 })
    const read = sampleSession()
    const changed = sampleSession()
    const deleted = sampleSession()
    await store.create(read)
    await store.create(changed)
    await store.create(deleted)
    await sleep(80)
    expect(await store.get(read.id)).toBeUndefined()
    expect(rawRow(table, read.id)).toBeUndefined()
    expect(await store.apply(changed.id, { kind: 'subscribe', uri: 'config://x' })).toBeUndefined()
    expect(rawRow(table, changed.id)).toBeUndefined()
    // An idle session is already gone: deleting it reports nothing was ended.
    expect(await store.delete(deleted.id)).toBe(false)
    expect(rawRow(table, deleted.id)).toBeUndefined()
    await store.close()
  })

  it('sweepsIdleRowsOnCreateAndCountsLiveSessionsOfEveryStoreOnTheFile', async () => {
    const table = freshTable()
    const a = sqliteSessionStore({ path, table, maxSessions: 2, idleMs: 100 })
    const b = sqliteSessionStore({ path, table, maxSessions: 2, idleMs: 100 })
    const first = sampleSession()
    expect(await a.create(first)).toBe(true)
    expect(await b.create(sampleSession())).toBe(true)
    expect(await a.create(sampleSession())).toBe(false)
    expect(await b.create(sampleSession())).toBe(false)
    await sleep(150)
    expect(await b.create(sampleSession())).toBe(true)
    expect(rawRow(table, first.id)).toBeUndefined()
    await Promise.all([a.close(), b.close()])
  })

  it('sharesOneFileWithTheSingleUseStoreOnItsOwnTable', async () => {
    const replay = sqliteReplayStore({ path })
    const sessions = sqliteSessionStore({ path })
    const claim = await replay.claim('shared-file', 'x', 60_000, 60_000)
    expect(claim.kind).toBe('claimed')
    const session = sampleSession()
    expect(await sessions.create(session)).toBe(true)
    expect(await sessions.get(session.id)).toEqual(session)
    expect(rawRow('tessera_sessions', session.id)).toBeDefined()
    await Promise.all([replay.close(), sessions.close()])
  })

  it('usesWALJournaling', async () => {
    const store = sqliteSessionStore({ path, table: freshTable() })
    await store.close()
    const raw = new Database(path, { readonly: true })
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal')
    raw.close()
  })

  it('rejectsNeverThrowsOnceClosed', async () => {
    const store = sqliteSessionStore({ path: ':memory:' })
    await store.close()
    const calls = [
      () => store.create(sampleSession()),
      () => store.get('x'),
      () => store.apply('x', { kind: 'initialized' }),
      () => store.delete('x'),
    ]
    for (const call of calls) {
      let promise: Promise<unknown> | undefined
      expect(() => {
        promise = call()
      }).not.toThrow()
      await expect(promise).rejects.toThrow(/not open/)
    }
    await store.close()
  })

  it('refusesBadOptions', () => {
    expect(() => sqliteSessionStore({ path: ':memory:', table: 'x; DROP TABLE y' })).toThrow(TypeError)
    expect(() => sqliteSessionStore({ path: ':memory:', idleMs: 0 })).toThrow(RangeError)
    expect(() => sqliteSessionStore({ path: ':memory:', maxSessions: 1.5 })).toThrow(RangeError)
    expect(() => sqliteSessionStore({ path: ':memory:', busyTimeoutMs: -1 })).toThrow(RangeError)
  })
})

const STORE_URL = new URL('./sqlite-session-store.ts', import.meta.url).href
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/**
 * A separate Node process (TypeScript through tsx) running `body`, an ES module body that calls
 * `await ready()` once set up: that reports ready and waits for `go`, so every worker starts
 * its changes at the same moment.
 */
class ChangeWorker {
  readonly #child: ChildProcessWithoutNullStreams
  readonly ready: Promise<void>
  readonly done: Promise<void>

  constructor(body: string) {
    const prelude = `import { createInterface } from 'node:readline'
      const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
      const ready = async () => { process.stdout.write('ready\\n'); await lines.next() }
    `
    this.#child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', `${prelude}${body}\nprocess.exit(0)`],
      {
        cwd: ROOT,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    )
    let stderr = ''
    this.#child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    this.ready = new Promise((resolve, reject) => {
      createInterface({ input: this.#child.stdout }).on('line', (line) => {
        if (line === 'ready') resolve()
      })
      this.#child.on('close', () => reject(new Error(`worker exited before ready: ${stderr}`)))
    })
    this.done = new Promise((resolve, reject) => {
      // 'close', not 'exit': only then has every line of its stdout been read.
      this.#child.on('close', (code) => {
        this.#child.stdin.destroy()
        if (code === 0) resolve()
        else reject(new Error(`worker exited with ${code}: ${stderr}`))
      })
    })
  }

  go(): void {
    this.#child.stdin.write('go\n')
  }
}
