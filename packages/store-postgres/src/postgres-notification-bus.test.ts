/**
 * @module postgres-notification-bus.test
 * The LISTEN/NOTIFY bus against PostgreSQL at TESSERA_TEST_POSTGRES_URL, on channels unique to
 * this run: two buses on one channel (as on two hosts) deliver each other's events exactly once,
 * in order, never their own echo and never a local event; an event too large for NOTIFY stays on
 * its host and is reported; a bus listens again after its connection is killed; close UNLISTENs
 * and hands a borrowed pool's client back. Without the URL the suite is skipped and says why.
 */
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { ServerEvent } from '@tessera/core'
import pg from 'pg'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import {
  MAX_NOTIFY_PAYLOAD_BYTES,
  type PostgresNotificationBus,
  postgresNotificationBus,
} from './postgres-notification-bus.ts'

const url = process.env['TESSERA_TEST_POSTGRES_URL']
const skip = url ? undefined : 'TESSERA_TEST_POSTGRES_URL is not set'
if (skip) process.stderr.write(`postgres-notification-bus tests skipped: ${skip}\n`)
const run = randomBytes(6).toString('hex')
let channels = 0
const freshChannel = () => `tessera_test_bus_${run}_${++channels}`

/** Waits until `check` holds, polling; fails after `ms`. */
async function until(check: () => boolean, ms = 2_000, what = 'condition'): Promise<void> {
  const end = performance.now() + ms
  while (!check()) {
    if (performance.now() > end) throw new Error(`${what} not reached within ${ms} ms`)
    await sleep(5)
  }
}

const updated = (uri: string): ServerEvent => ({ type: 'resources/updated', uri })

describe.skipIf(!url)('postgresNotificationBus', () => {
  const admin = url ? new pg.Pool({ connectionString: url }) : undefined
  const opened: PostgresNotificationBus[] = []
  const pools: pg.Pool[] = []
  const open = (options: Partial<Parameters<typeof postgresNotificationBus>[0]> = {}) => {
    const errors: Error[] = []
    const bus = postgresNotificationBus({
      connectionString: url!,
      onError: (error) => errors.push(error),
      ...options,
    })
    opened.push(bus)
    const seen: ServerEvent[] = []
    bus.subscribe((event) => seen.push(event))
    return { bus, seen, errors }
  }
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((bus) => bus.close()))
    await Promise.all(pools.splice(0).map((pool) => pool.end()))
  })
  afterAll(async () => {
    await admin?.end()
  })

  /** Backends listening on `channel`, by the LISTEN they ran last. */
  const listeners = async (channel: string) =>
    (
      await admin!.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()`,
        [`LISTEN "${channel}"`],
      )
    ).rows.map((row) => row.pid)

  it("delivers each other's events exactly once, in order, never the own echo", async () => {
    const channel = freshChannel()
    const a = open({ channel })
    const b = open({ channel })
    await Promise.all([a.bus.ready(), b.bus.ready()])
    const fromA = Array.from({ length: 30 }, (_, i) => updated(`a://${i}`))
    const fromB = Array.from({ length: 20 }, (_, i) => updated(`b://${i}`))
    // Identical events too: NOTIFY must not merge them.
    fromA.push({ type: 'tools/list_changed' }, { type: 'tools/list_changed' })
    for (let i = 0; i < Math.max(fromA.length, fromB.length); i++) {
      if (fromA[i]) a.bus.publish(fromA[i]!)
      if (fromB[i]) b.bus.publish(fromB[i]!)
    }
    // Local delivery is immediate.
    expect(a.seen.filter((e) => fromA.includes(e))).toHaveLength(fromA.length)
    await until(
      () => a.seen.length >= fromA.length + fromB.length && b.seen.length >= fromA.length + fromB.length,
    )
    // Time for any duplicate or echo to show up.
    await sleep(100)
    const remote = (seen: ServerEvent[], sent: ServerEvent[]) => seen.filter((e) => !sent.includes(e))
    expect(remote(a.seen, fromA)).toEqual(fromB)
    expect(remote(b.seen, fromB)).toEqual(fromA)
    expect(a.seen).toHaveLength(fromA.length + fromB.length)
    expect(b.seen).toHaveLength(fromA.length + fromB.length)
    expect(a.errors).toEqual([])
    expect(b.errors).toEqual([])
  })

  it('never sends a local event, but delivers it locally', async () => {
    const channel = freshChannel()
    const a = open({ channel })
    const b = open({ channel })
    await Promise.all([a.bus.ready(), b.bus.ready()])
    a.bus.publish({ type: 'shutdown' })
    a.bus.publish({ type: 'session-ended', sessionId: 's1' })
    expect(a.seen).toEqual([{ type: 'shutdown' }, { type: 'session-ended', sessionId: 's1' }])
    await until(() => b.seen.length === 1)
    await sleep(50)
    expect(b.seen).toEqual([{ type: 'session-ended', sessionId: 's1' }])
  })

  it('keeps an event too large for NOTIFY on its host, and reports it', async () => {
    const channel = freshChannel()
    const a = open({ channel })
    const b = open({ channel })
    await Promise.all([a.bus.ready(), b.bus.ready()])
    // Under 8000 characters, over 8000 bytes: the bound is in bytes.
    const large = updated(`file:///${'é'.repeat(4_500)}`)
    const fits = updated(`file:///${'x'.repeat(7_800)}`)
    a.bus.publish(large)
    a.bus.publish(fits)
    a.bus.publish(updated('file:///after'))
    expect(a.seen).toEqual([large, fits, updated('file:///after')])
    expect(a.errors).toHaveLength(1)
    expect(a.errors[0]!.message).toMatch(/resources\/updated.*bytes.*this host only/)
    // Sends are ordered: once the event after it arrived, the large one never will.
    await until(() => b.seen.length === 2)
    expect(b.seen).toEqual([fits, updated('file:///after')])
    expect(MAX_NOTIFY_PAYLOAD_BYTES).toBeLessThan(8000)
  })

  it('listens again after its connection is killed, and reports the loss', async () => {
    const channel = freshChannel()
    const a = open({ channel })
    const b = open({ channel })
    await Promise.all([a.bus.ready(), b.bus.ready()])
    const before = await listeners(channel)
    expect(before).toHaveLength(2)
    // Kill one bus's LISTEN connection (which one does not matter): that bus is the one that reports.
    const killed = before[0]!
    await admin!.query('SELECT pg_terminate_backend($1)', [killed])
    await until(() => a.errors.length + b.errors.length > 0, 2_000, 'an error report')
    const lost = a.errors.length > 0 ? a : b
    const other = lost === a ? b : a
    expect(other.errors).toEqual([])
    await lost.bus.ready()
    const after = await listeners(channel)
    expect(after).toHaveLength(2)
    expect(after).not.toContain(killed)
    other.bus.publish(updated('file:///again'))
    await until(() => lost.seen.some((e) => e.type === 'resources/updated' && e.uri === 'file:///again'))
    lost.bus.publish(updated('file:///back'))
    await until(() => other.seen.some((e) => e.type === 'resources/updated' && e.uri === 'file:///back'))
  })

  it('UNLISTENs on close and hands a borrowed pool its client back', async () => {
    const channel = freshChannel()
    const pool = new pg.Pool({ connectionString: url!, max: 1 })
    pools.push(pool)
    const { bus } = open({ channel, pool })
    await bus.ready()
    expect(await listeners(channel)).toHaveLength(1)
    await bus.close()
    await expect(bus.ready()).rejects.toThrow(/closed/)
    // One connection in the pool: the bus's own, now listening to nothing.
    expect((await pool.query('SELECT pg_listening_channels() AS c')).rows).toEqual([])
    expect(pool.totalCount).toBe(1)
  })

  it('reports a database it cannot reach, and still delivers locally', async () => {
    const errors: Error[] = []
    const bus = postgresNotificationBus({
      connectionString: 'postgres://postgres@127.0.0.1:1/test',
      onError: (error) => errors.push(error),
      timeoutMs: 500,
    })
    opened.push(bus)
    const seen: ServerEvent[] = []
    bus.subscribe((event) => seen.push(event))
    bus.publish({ type: 'prompts/list_changed' })
    expect(seen).toEqual([{ type: 'prompts/list_changed' }])
    await until(() => errors.length >= 2, 2_000, 'error reports')
  })

  it('stops delivering to a listener that unsubscribed', async () => {
    const channel = freshChannel()
    const a = open({ channel })
    const b = open({ channel })
    await Promise.all([a.bus.ready(), b.bus.ready()])
    const extra: ServerEvent[] = []
    const off = b.bus.subscribe((event) => extra.push(event))
    a.bus.publish(updated('file:///1'))
    await until(() => extra.length === 1)
    off()
    a.bus.publish(updated('file:///2'))
    await until(() => b.seen.length === 2)
    expect(extra).toEqual([updated('file:///1')])
  })

  it('refuses bad options', () => {
    expect(() => postgresNotificationBus({ connectionString: url!, channel: 'x"; NOTIFY y' })).toThrow(
      TypeError,
    )
    expect(() => postgresNotificationBus({ connectionString: url!, timeoutMs: 0 })).toThrow(RangeError)
    expect(() => postgresNotificationBus({})).toThrow(TypeError)
  })
})
