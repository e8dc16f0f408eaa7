/**
 * @module postgres-notification-bus.test
 * The NotificationBus contract for the LISTEN/NOTIFY bus against PostgreSQL at
 * TESSERA_TEST_POSTGRES_URL (each bus, or pair of buses as on two hosts, on a channel unique to
 * this run), plus what only this bus has: an event too large for NOTIFY stays on its host and is
 * reported; an unreadable notification is dropped and reported; a bus listens again after its
 * connection is killed; close UNLISTENs and hands a borrowed pool's client back; a database it
 * cannot reach is reported while local delivery goes on. Without the URL the suites are skipped
 * and say why.
 */
import { randomBytes } from 'node:crypto'
import type { ServerEvent } from '@tessera/core/ports'
import pg from 'pg'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { describeNotificationBus, until } from '../../../test/contracts/notification-bus-contract.ts'
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

const updated = (uri: string): ServerEvent => ({ type: 'resources/updated', uri })

describeNotificationBus(
  'postgres',
  {
    single: () => postgresNotificationBus({ connectionString: url!, channel: freshChannel() }),
    async pair() {
      const channel = freshChannel()
      const a = postgresNotificationBus({ connectionString: url!, channel })
      const b = postgresNotificationBus({ connectionString: url!, channel })
      await Promise.all([a.ready(), b.ready()])
      return [a, b]
    },
  },
  skip ? { skip } : {},
)

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

  it('keepsAnEventTooLargeForNOTIFYOnItsHostAndReportsIt', async () => {
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
    await until(() => b.seen.length === 2, 'the events that fit on B')
    expect(b.seen).toEqual([fits, updated('file:///after')])
    expect(MAX_NOTIFY_PAYLOAD_BYTES).toBeLessThan(8000)
  })

  it('listensAgainAfterItsConnectionIsKilledAndReportsTheLoss', async () => {
    const channel = freshChannel()
    const a = open({ channel })
    const b = open({ channel })
    await Promise.all([a.bus.ready(), b.bus.ready()])
    const before = await listeners(channel)
    expect(before).toHaveLength(2)
    // Kill one bus's LISTEN connection (which one does not matter): that bus is the one that reports.
    const killed = before[0]!
    await admin!.query('SELECT pg_terminate_backend($1)', [killed])
    await until(() => a.errors.length + b.errors.length > 0, 'an error report')
    const lost = a.errors.length > 0 ? a : b
    const other = lost === a ? b : a
    expect(other.errors).toEqual([])
    await lost.bus.ready()
    const after = await listeners(channel)
    expect(after).toHaveLength(2)
    expect(after).not.toContain(killed)
    other.bus.publish(updated('file:///again'))
    await until(
      () => lost.seen.some((e) => e.type === 'resources/updated' && e.uri === 'file:///again'),
      'the event on the bus that listens again',
    )
    lost.bus.publish(updated('file:///back'))
    await until(
      () => other.seen.some((e) => e.type === 'resources/updated' && e.uri === 'file:///back'),
      'the event from the bus that listens again',
    )
  })

  it('uNLISTENsOnCloseAndHandsABorrowedPoolItsClientBack', async () => {
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

  it('reportsADatabaseItCannotReachAndStillDeliversLocally', async () => {
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
    await until(() => errors.length >= 2, 'error reports')
  })

  it('dropsAndReportsAnUnreadableNotificationOnItsChannelAndGoesOn', async () => {
    const channel = freshChannel()
    const a = open({ channel })
    await a.bus.ready()
    for (const payload of [
      'not json',
      JSON.stringify({ origin: 'x', seq: 0, event: { type: 'shutdown' } }),
      JSON.stringify({ origin: 'x', seq: 1, event: updated('file:///ok') }),
    ]) {
      await admin!.query('SELECT pg_notify($1, $2)', [channel, payload])
    }
    await until(() => a.seen.length === 1, 'the readable event')
    expect(a.seen).toEqual([updated('file:///ok')])
    expect(a.errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/unreadable/),
      expect.stringMatching(/unreadable/),
    ])
  })

  it('refusesBadOptions', () => {
    expect(() => postgresNotificationBus({ connectionString: url!, channel: 'x"; NOTIFY y' })).toThrow(
      TypeError,
    )
    expect(() => postgresNotificationBus({ connectionString: url!, timeoutMs: 0 })).toThrow(RangeError)
    expect(() => postgresNotificationBus({})).toThrow(TypeError)
  })
})
