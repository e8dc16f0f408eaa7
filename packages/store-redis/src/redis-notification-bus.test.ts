/**
 * @module redis-notification-bus.test
 * The NotificationBus contract for the Redis pub/sub bus at TESSERA_TEST_REDIS_URL (each bus, or
 * pair of buses, on a channel unique to this run), plus what only this bus has: a borrowed client
 * left open, an unreadable message on the channel dropped and reported, and local delivery with
 * the failure reported when Redis cannot be reached. Without the URL the Redis suites are skipped
 * and say why.
 */
import { randomBytes } from 'node:crypto'
import type { ServerEvent } from '@tessera/core/ports'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { describeNotificationBus, until } from '../../../test/contracts/notification-bus-contract.ts'
import { redisNotificationBus } from './redis-notification-bus.ts'

const url = process.env['TESSERA_TEST_REDIS_URL']
const skip = url ? undefined : 'TESSERA_TEST_REDIS_URL is not set'
if (skip) process.stderr.write(`redis-notification-bus tests skipped: ${skip}\n`)
const run = randomBytes(6).toString('hex')
let channels = 0
const freshChannel = () => `tessera-test:${run}:bus:${++channels}`

describeNotificationBus(
  'redis',
  {
    single: () => redisNotificationBus({ url: url!, channel: freshChannel() }),
    async pair() {
      const channel = freshChannel()
      const a = redisNotificationBus({ url: url!, channel })
      const b = redisNotificationBus({ url: url!, channel })
      await Promise.all([a.ready(), b.ready()])
      return [a, b]
    },
  },
  skip ? { skip } : {},
)

describe.skipIf(!url)('redisNotificationBus', () => {
  const admin = url ? new Redis(url) : undefined
  afterAll(async () => {
    await admin?.quit()
  })

  it('publishesOnAClientItDoesNotOwnAndLeavesItOpen', async () => {
    const channel = freshChannel()
    const client = new Redis(url!)
    const a = redisNotificationBus({ client, channel })
    const b = redisNotificationBus({ url: url!, channel })
    await Promise.all([a.ready(), b.ready()])
    const seen: ServerEvent[] = []
    b.subscribe((event) => seen.push(event))
    a.publish({ type: 'tools/list_changed' })
    await until(() => seen.length === 1, 'the event on B')
    await Promise.all([a.close(), b.close()])
    expect(await client.ping()).toBe('PONG')
    await client.quit()
  })

  it('dropsAndReportsAnUnreadableMessageOnItsChannelAndGoesOn', async () => {
    const channel = freshChannel()
    const errors: Error[] = []
    const bus = redisNotificationBus({ url: url!, channel, onError: (error) => errors.push(error) })
    await bus.ready()
    const seen: ServerEvent[] = []
    bus.subscribe((event) => seen.push(event))
    await admin!.publish(channel, 'not json')
    await admin!.publish(channel, JSON.stringify({ origin: 'x', seq: 0, event: { type: 'shutdown' } }))
    await admin!.publish(
      channel,
      JSON.stringify({ origin: 'x', seq: 1, event: { type: 'resources/updated', uri: 'file:///ok' } }),
    )
    await until(() => seen.length === 1, 'the readable event')
    expect(seen).toEqual([{ type: 'resources/updated', uri: 'file:///ok' }])
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/unreadable/),
      expect.stringMatching(/unreadable/),
    ])
    await bus.close()
  })
})

describe('redisNotificationBus without a server', () => {
  it('stillDeliversLocallyAndReportsTheFailure', async () => {
    const errors: Error[] = []
    const bus = redisNotificationBus({
      url: 'redis://127.0.0.1:1',
      channel: freshChannel(),
      onError: (error) => errors.push(error),
    })
    const seen: ServerEvent[] = []
    bus.subscribe((event) => seen.push(event))
    bus.publish({ type: 'prompts/list_changed' })
    expect(seen).toEqual([{ type: 'prompts/list_changed' }])
    await until(() => errors.length > 0, 'an error report')
    await expect(bus.ready()).rejects.toThrow()
    await bus.close()
  })

  it('refusesToStartWithoutAUrlOrAClient', () => {
    expect(() => redisNotificationBus({})).toThrow(TypeError)
  })
})
