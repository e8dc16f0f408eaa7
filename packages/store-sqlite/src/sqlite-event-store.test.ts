/**
 * @module sqlite-event-store.test
 * The EventStore contract, run against the SQLite store on a temporary file and in memory, plus
 * what only this store has: a replay on one store of what another appended on the same file (as
 * two processes would be), ids minted by two real processes appending to one stream at once,
 * trimming, expiry and sweeping, pollers stopped by close, and one file shared with the other
 * SQLite stores. Which ids name an event is the contract's business: every store agrees on it.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { type EventStore, parseEventId, type StoredEvent } from '@tessera/core/ports'
import Database from 'better-sqlite3'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { describeEventStore, sampleStreamId } from '../../../test/contracts/event-store-contract.ts'
import { sampleSession } from '../../../test/contracts/session-store-contract.ts'
import { sqliteEventStore } from './sqlite-event-store.ts'
import { sqliteReplayStore } from './sqlite-replay-store.ts'
import { sqliteSessionStore } from './sqlite-session-store.ts'

const dir = mkdtempSync(join(tmpdir(), 'tessera-sqlite-events-'))
const path = join(dir, 'events.db')
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let tables = 0
const freshTable = () => `events_${++tables}`

describeEventStore('sqlite file', (options) => sqliteEventStore({ path, ...options }))
describeEventStore('sqlite :memory:', (options) => sqliteEventStore({ path: ':memory:', ...options }))

const note = (n: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data: n },
})

/** Rows of one table, read on a connection of its own. */
function rawCount(table: string, stream: string): number {
  const raw = new Database(path, { readonly: true })
  try {
    return (raw.prepare(`SELECT count(*) AS n FROM "${table}" WHERE stream = ?`).get(stream) as { n: number })
      .n
  } finally {
    raw.close()
  }
}

async function collect(store: EventStore, eventId: string, signal = new AbortController().signal) {
  const events: StoredEvent[] = []
  const stream = await store.replay(eventId, (event) => events.push(event), signal)
  return { stream, events }
}

describe('sqliteEventStore', () => {
  const opened: EventStore[] = []
  const open = (options: Partial<Parameters<typeof sqliteEventStore>[0]> = {}) => {
    const store = sqliteEventStore({ path, ...options })
    opened.push(store)
    return store
  }
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()))
  })

  it('mintsStreamSeqIdsSeqCountingFrom1PerStream', async () => {
    const store = open()
    const a = sampleStreamId()
    const b = sampleStreamId()
    expect(await store.append(a, undefined)).toBe(`${a}/1`)
    expect(await store.append(a, note(1))).toBe(`${a}/2`)
    expect(await store.append(b, note(1))).toBe(`${b}/1`)
    expect(await store.append(a, note(2))).toBe(`${a}/3`)
  })

  it('replaysOnOneStoreWhatAnotherAppendedLiveTwoProcesses', async () => {
    const table = freshTable()
    const writer = open({ table })
    const reader = open({ table })
    const stream = sampleStreamId()
    const priming = await writer.append(stream, undefined)
    const backlog = { id: await writer.append(stream, note(0)), message: note(0) }
    const seen: StoredEvent[] = []
    const replay = reader.replay(priming, (event) => seen.push(event), new AbortController().signal)
    const expected: StoredEvent[] = [backlog]
    for (let n = 1; n <= 5; n++) {
      expected.push({ id: await writer.append(stream, note(n)), message: note(n) })
      await sleep(20)
    }
    // The reader polls: it has already seen the live events before the stream finishes.
    await sleep(100)
    expect(seen).toEqual(expected)
    await writer.finish(stream)
    expect(await replay).toBe(stream)
    expect(seen).toEqual(expected)
  })

  it('mintsDistinctGaplessIdsForTwoStoresAppendingToOneStreamAtOnce', async () => {
    const table = freshTable()
    const a = open({ table })
    const b = open({ table })
    const stream = sampleStreamId()
    const ids = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).append(stream, note(i))),
    )
    expect(ids.map((id) => Number(id.slice(stream.length + 1))).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    )
  })

  it('mintsDistinctIdsForTwoRealProcessesAppendingToOneStreamAtOnce', async () => {
    const table = freshTable()
    const stream = sampleStreamId()
    const perWorker = 150
    const store = open({ table })
    const priming = await store.append(stream, undefined)
    const seen: StoredEvent[] = []
    const replay = store.replay(priming, (event) => seen.push(event), new AbortController().signal)
    const workers = [0, 1].map(
      (n) =>
        new AppendWorker(`
          const { sqliteEventStore } = await import(${JSON.stringify(STORE_URL)})
          const store = sqliteEventStore({ path: ${JSON.stringify(path)}, table: ${JSON.stringify(table)} })
          await ready()
          const ids = []
          for (let i = 0; i < ${perWorker}; i++) {
            ids.push(await store.append(${JSON.stringify(stream)}, { worker: ${n}, i }))
          }
          process.stdout.write(JSON.stringify(ids) + '\\n')
          await store.close()
        `),
    )
    await Promise.all(workers.map((worker) => worker.ready))
    for (const worker of workers) worker.go()
    const minted = (await Promise.all(workers.map((worker) => worker.done))).flat()
    await store.finish(stream)
    await replay
    expect(new Set(minted).size).toBe(2 * perWorker)
    expect(minted.every((id) => parseEventId(id)?.streamId === stream)).toBe(true)
    // The live replay saw every event once, in seq order, under the id its writer was given.
    expect(seen.map((event) => event.id).sort()).toEqual(minted.slice().sort())
    expect(seen.map((event) => Number(event.id.slice(stream.length + 1)))).toEqual(
      Array.from({ length: 2 * perWorker }, (_, i) => i + 2),
    )
  }, 30_000)

  it('keepsExactlyMaxEventsPerStreamRowsOfAStream', async () => {
    const table = freshTable()
    const store = open({ table, maxEventsPerStream: 5 })
    const stream = sampleStreamId()
    const ids: string[] = []
    for (let n = 1; n <= 12; n++) ids.push(await store.append(stream, note(n)))
    await store.finish(stream)
    expect(rawCount(table, stream)).toBe(5)
    expect((await collect(store, ids[0]!)).events.map((event) => event.id)).toEqual(ids.slice(-5))
  })

  it('forgetsAStreamUnchangedForStreamTtlMsAndSweepsItsRows', async () => {
    const table = freshTable()
    const store = open({ table, streamTtlMs: 100, sweepEvery: 1 })
    const old = sampleStreamId()
    const priming = await store.append(old, undefined)
    await store.append(old, note(1))
    await sleep(150)
    expect(await collect(store, priming)).toEqual({ stream: undefined, events: [] })
    expect(rawCount(table, old)).toBe(2)
    await store.append(sampleStreamId(), undefined)
    expect(rawCount(table, old)).toBe(0)
    expect(rawCount(`${table}_streams`, old)).toBe(0)
  })

  it('stopsFollowingAStreamThatExpiresWhileFollowed', async () => {
    const store = open({ streamTtlMs: 150 })
    const stream = sampleStreamId()
    const priming = await store.append(stream, undefined)
    const t0 = performance.now()
    expect(await collect(store, priming)).toEqual({ stream, events: [] })
    expect(performance.now() - t0).toBeLessThan(1_000)
  })

  it('endsItsReplaysOnClose', async () => {
    const store = sqliteEventStore({ path, pollMs: 10_000 })
    const stream = sampleStreamId()
    const priming = await store.append(stream, undefined)
    const replay = store.replay(priming, () => {}, new AbortController().signal)
    await sleep(50)
    const t0 = performance.now()
    await store.close()
    await expect(replay).resolves.toBe(stream)
    expect(performance.now() - t0).toBeLessThan(100)
  })

  it('wakesALocalReplayOnAppendAtOnceWithoutWaitingForThePoll', async () => {
    const store = open({ pollMs: 10_000 })
    const stream = sampleStreamId()
    const priming = await store.append(stream, undefined)
    const seen: StoredEvent[] = []
    const replay = store.replay(priming, (event) => seen.push(event), new AbortController().signal)
    await sleep(20)
    const id = await store.append(stream, note(1))
    await sleep(20)
    expect(seen).toEqual([{ id, message: note(1) }])
    await store.finish(stream)
    expect(await replay).toBe(stream)
  })

  it('sharesOneFileWithTheSingleUseAndSessionStoresOnTablesOfItsOwn', async () => {
    const replayStore = sqliteReplayStore({ path })
    const sessions = sqliteSessionStore({ path })
    const events = open()
    const session = sampleSession()
    expect(await sessions.create(session)).toBe(true)
    expect((await replayStore.claim(`k-${session.id}`, 'x', 60_000, 60_000)).kind).toBe('claimed')
    const stream = sampleStreamId(session.id)
    const priming = await events.append(stream, undefined)
    const one = await events.append(stream, note(1))
    await events.finish(stream)
    expect((await collect(events, priming)).events).toEqual([{ id: one, message: note(1) }])
    expect(rawCount('tessera_events', stream)).toBe(2)
    await Promise.all([replayStore.close(), sessions.close()])
  })

  it('rejectsNeverThrowsABadStreamIdAndAnyCallOnceClosed', async () => {
    const store = sqliteEventStore({ path: ':memory:' })
    await expect(store.append('', undefined)).rejects.toThrow(TypeError)
    await store.close()
    const calls = [
      () => store.append(sampleStreamId(), undefined),
      () => store.finish(sampleStreamId()),
      () => store.replay(`${sampleStreamId()}/1`, () => {}, new AbortController().signal),
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
    expect(() => sqliteEventStore({ path: ':memory:', table: 'x"; DROP TABLE y' })).toThrow(TypeError)
    expect(() => sqliteEventStore({ path: ':memory:', maxEventsPerStream: 0 })).toThrow(RangeError)
    expect(() => sqliteEventStore({ path: ':memory:', streamTtlMs: 1.5 })).toThrow(RangeError)
    expect(() => sqliteEventStore({ path: ':memory:', pollMs: -1 })).toThrow(RangeError)
  })
})

const STORE_URL = new URL('./sqlite-event-store.ts', import.meta.url).href
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/**
 * A separate Node process (TypeScript through tsx) running `body`, an ES module body that calls
 * `await ready()` once set up (it reports ready and waits for `go`, so workers start together)
 * and writes the ids it minted as one JSON line.
 */
class AppendWorker {
  readonly #child: ChildProcessWithoutNullStreams
  readonly ready: Promise<void>
  readonly done: Promise<string[]>

  constructor(body: string) {
    const prelude = `import { createInterface } from 'node:readline'
      const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
      const ready = async () => { process.stdout.write('ready\\n'); await lines.next() }
    `
    this.#child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', `${prelude}${body}\nprocess.exit(0)`],
      { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
    )
    let stderr = ''
    this.#child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    let ids: string[] = []
    this.ready = new Promise((resolve, reject) => {
      createInterface({ input: this.#child.stdout }).on('line', (line) => {
        if (line === 'ready') resolve()
        else ids = JSON.parse(line) as string[]
      })
      this.#child.on('close', () => reject(new Error(`worker exited before ready: ${stderr}`)))
    })
    this.done = new Promise((resolve, reject) => {
      // 'close', not 'exit': only then has every line of its stdout been read.
      this.#child.on('close', (code) => {
        this.#child.stdin.destroy()
        if (code === 0) resolve(ids)
        else reject(new Error(`worker exited with ${code}: ${stderr}`))
      })
    })
  }

  go(): void {
    this.#child.stdin.write('go\n')
  }
}
