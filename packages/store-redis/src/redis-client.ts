/**
 * @module redis-client
 * The Redis plumbing every store of this package shares: connecting with bounded timeouts,
 * running a Lua script by hash (reloading it after a `SCRIPT FLUSH`), and the server-clock
 * snippet the scripts use so leases never depend on a host's clock. The time limit on a call and
 * the option checks are core's (`withTimeout`, `positiveInteger` from `@tessera/core/ports`).
 */
import { createHash } from 'node:crypto'
import { Redis } from 'ioredis'

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

/** A connection owned by a store: failures reach callers as rejected calls, never as queued retries. */
export function connect(url: string | undefined, timeoutMs: number, owner: string): Redis {
  if (!url) throw new TypeError(`${owner} needs a url or a client`)
  const client = new Redis(url, {
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    // Fail a call rather than queue it through a long outage: a guard must not run work blind.
    maxRetriesPerRequest: 1,
  })
  // Without a listener ioredis would log every failure itself.
  client.on('error', () => {})
  return client
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

/** Closes a client the store opened itself; a client passed in stays open. */
export async function closeOwned(client: Redis, owned: boolean): Promise<void> {
  if (!owned) return
  if (client.status === 'ready') await client.quit().catch(() => client.disconnect())
  else client.disconnect()
}
