/**
 * @module redis-notification-bus
 * The server event bus over Redis pub/sub, for several instances behind one endpoint: a resource
 * updated on one instance reaches listen and GET streams held by the others, and a handshake-era
 * client's answer, cancel or DELETE reaches the instance that holds the session's request. Events
 * are delivered locally at once and published for the others; an instance ignores its own echo.
 */
import { randomBytes } from 'node:crypto'
import { isLocalEvent, type NotificationBus, type ServerEvent, type ServerEventListener } from '@tessera/core'
import { Redis } from 'ioredis'

export interface RedisNotificationBusOptions {
  /** Connection URL (`redis://…`); the bus owns its connections and closes them. */
  url?: string
  /** An existing client for publishing; the bus duplicates it to subscribe and leaves it open. */
  client?: Redis
  /** The pub/sub channel every instance of one server shares. Default `tessera:bus`. */
  channel?: string
  /** Called when Redis fails; events still reach this instance's own listeners. */
  onError?: (error: Error) => void
}

interface Envelope {
  origin: string
  event: ServerEvent
}

export function redisNotificationBus(options: RedisNotificationBusOptions): NotificationBus {
  const channel = options.channel ?? 'tessera:bus'
  const owned = options.client === undefined
  if (owned && !options.url) throw new TypeError('redisNotificationBus needs a url or a client')
  const publisher = options.client ?? new Redis(options.url!, { maxRetriesPerRequest: 1 })
  const subscriber = publisher.duplicate()
  const origin = randomBytes(9).toString('base64url')
  const listeners = new Set<ServerEventListener>()
  const onError = (error: Error) => options.onError?.(error)
  publisher.on('error', onError)
  subscriber.on('error', onError)
  const deliver = (event: ServerEvent) => {
    for (const listener of listeners) listener(event)
  }
  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return
    const envelope = parse(text)
    if (envelope && envelope.origin !== origin && !isLocalEvent(envelope.event)) deliver(envelope.event)
  })
  const ready = subscriber.subscribe(channel).catch(onError)
  return {
    publish(event) {
      deliver(event)
      if (isLocalEvent(event)) return
      const envelope: Envelope = { origin, event }
      publisher.publish(channel, JSON.stringify(envelope)).catch(onError)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      await ready
      subscriber.disconnect()
      if (owned) await publisher.quit().catch(() => publisher.disconnect())
    },
  }
}

function parse(text: string): Envelope | undefined {
  try {
    const value = JSON.parse(text) as Envelope
    return typeof value?.origin === 'string' && typeof value.event?.type === 'string' ? value : undefined
  } catch {
    return undefined
  }
}
