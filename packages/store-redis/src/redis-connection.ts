/**
 * @module redis-connection
 * How every store of this package reaches Redis, and the plumbing they share: the connection a
 * store opens (calls fail fast instead of queueing through an outage) or the caller's client it
 * borrows and leaves open, running a Lua script by hash (reloading it after a `SCRIPT FLUSH`), and
 * the server-clock snippet the scripts use so leases never depend on a host's clock. Redis has no
 * schema to prepare: a script is loaded by the first call that runs it. The time limit on a call
 * and the option checks are core's (`withTimeout`, `positiveInteger` from `@tessera/core/ports`).
 */
import { createHash } from 'node:crypto'
import type { OptionNames } from '@tessera/core/ports'
import { Redis } from 'ioredis'

/** Where the stores keep their data: the options every factory of this package takes. */
export interface ConnectionOptions {
  /** Connection URL (`redis://…`); the connection is the store's own, closed with it (in a bundle, with the last store). */
  url?: string
  /**
   * An existing client, used and left open. What needs a connection of its own (the bus's
   * subscription, a replay that follows a stream live) runs on a duplicate of it.
   */
  client?: Redis
}

/** The names of `ConnectionOptions`, part of every factory's own list. */
export const CONNECTION_OPTION_NAMES = {
  url: true,
  client: true,
} as const satisfies OptionNames<ConnectionOptions>

/** The client a store works on; `release` closes it when the store opened it, once. */
export interface StoreConnection {
  client: Redis
  release(): Promise<void>
}

/**
 * The client `options` name: the one given, or a connection to `url` whose connect and every
 * command are bounded by `timeoutMs` when it is set. `owner` names the factory in the TypeError
 * of a missing url.
 */
export function openConnection(
  options: ConnectionOptions,
  owner: string,
  settings: { timeoutMs?: number } = {},
): StoreConnection {
  if (options.client !== undefined) return { client: options.client, release: async () => {} }
  if (!options.url) throw new TypeError(`${owner} needs a url or a client`)
  const { timeoutMs } = settings
  const client = new Redis(options.url, {
    ...(timeoutMs === undefined ? {} : { connectTimeout: timeoutMs, commandTimeout: timeoutMs }),
    // Fail a call rather than queue it through a long outage: a guard must not run work blind.
    maxRetriesPerRequest: 1,
  })
  // Without a listener ioredis would log every failure itself.
  client.on('error', () => {})
  let released: Promise<void> | undefined
  return { client, release: () => (released ??= close(client)) }
}

async function close(client: Redis): Promise<void> {
  if (client.status === 'ready') await client.quit().catch(() => client.disconnect())
  else client.disconnect()
}

/** Lua: `now` in milliseconds by the Redis server's clock. */
export const NOW_MS = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`

export interface Script {
  source: string
  sha: string
}

export function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') }
}

export async function evalScript(
  client: Redis,
  s: Script,
  keys: string[],
  args: (string | number)[],
): Promise<unknown> {
  try {
    return await client.evalsha(s.sha, keys.length, ...keys, ...args)
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error
    return client.eval(s.source, keys.length, ...keys, ...args)
  }
}
