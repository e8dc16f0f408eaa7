/**
 * @module redis-notification-bus
 * The server event bus over Redis pub/sub, for several instances behind one endpoint: a resource
 * updated on one instance reaches listen and GET streams held by the others, and a handshake-era
 * client's answer, cancel or DELETE reaches the instance that holds the session's request.
 *
 * Everything but the transport is core's bus relay (`createBusRelay`): the wire message, the
 * validation of what arrives, the echo filter, local delivery, listeners isolated from each
 * other. This module only publishes the relay's text on the channel and hands it what the
 * channel brings. SUBSCRIBE takes a connection for itself, so the bus subscribes on a duplicate
 * of the publishing client.
 */
import {
  assertKnownOptions,
  createBusRelay,
  type NotificationBus,
  type OptionNames,
} from '@tessera/core/ports'
import { CONNECTION_OPTION_NAMES, type ConnectionOptions, openConnection } from './redis-connection.ts'

/**
 * The connection of `redisNotificationBus` (it publishes on it and subscribes on a duplicate of it),
 * its channel, and who hears of its failures.
 */
export interface RedisNotificationBusOptions extends ConnectionOptions {
  /** The pub/sub channel every instance of one server shares. Default `tessera:bus`. */
  channel?: string
  /**
   * Called when Redis fails, a listener throws or an unreadable message arrives; events still
   * reach this instance's own listeners.
   */
  onError?: (error: Error) => void
}

const BUS_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  channel: true,
  onError: true,
} as const satisfies OptionNames<RedisNotificationBusOptions>

/** The server event bus over Redis pub/sub, with a way to wait until it listens. */
export interface RedisNotificationBus extends NotificationBus {
  /** Resolves once the bus is subscribed to its channel (events from others reach it from then on). */
  ready(): Promise<void>
}

/**
 * The server event bus over Redis pub/sub: what one instance publishes reaches the listeners of every other.
 */
export function redisNotificationBus(options: RedisNotificationBusOptions): RedisNotificationBus {
  assertKnownOptions(options, BUS_OPTION_NAMES, 'redisNotificationBus', { required: true })
  const channel = options.channel ?? 'tessera:bus'
  const { client: publisher, release } = openConnection(options, 'redisNotificationBus')
  const subscriber = publisher.duplicate()
  const onError = (error: Error) => {
    try {
      options.onError?.(error)
    } catch {
      // A failing error handler must not break the bus.
    }
  }
  let closing: Promise<void> | undefined
  const relay = createBusRelay({
    send: (payload) => {
      // Once closing, events stay local: the connection is going (or belongs to the caller again).
      if (closing === undefined) publisher.publish(channel, payload).catch(onError)
    },
    onError,
  })
  publisher.on('error', onError)
  subscriber.on('error', onError)
  subscriber.on('message', (from: string, text: string) => {
    if (from === channel) relay.receive(text)
  })
  const subscribed = subscriber.subscribe(channel).then(
    () => undefined,
    (error: Error) => {
      onError(error)
      throw error
    },
  )
  // Reported above; a bus nobody awaits must not leave an unhandled rejection behind.
  subscribed.catch(() => undefined)
  return {
    publish: relay.publish,
    subscribe: relay.subscribe,
    ready: () => subscribed,
    close() {
      closing ??= (async () => {
        await subscribed.catch(() => undefined)
        subscriber.disconnect()
        publisher.off('error', onError)
        await release()
      })()
      return closing
    },
  }
}
