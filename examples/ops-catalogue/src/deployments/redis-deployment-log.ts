/**
 * @module redis-deployment-log
 * The deployment log in Redis, for several hosts: one list per service, one JSON entry per item.
 * Seeding and appending are Lua scripts, so the head check and the push are one atomic step on
 * the server whichever host sends them.
 */
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import {
  type AppendResult,
  type Deployment,
  type DeploymentLog,
  type NewDeployment,
  seedId,
  stamp,
} from './deployment-log.ts'

export interface RedisDeploymentLogOptions {
  url: string
  /** Prefix of every key. Default `ops-catalogue:`. */
  keyPrefix?: string
}

/** Bound on connecting and on every command. */
const CALL_TIMEOUT_MS = 2_000

const SEED = `if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
for i = 1, #ARGV do redis.call('RPUSH', KEYS[1], ARGV[i]) end
return 1`

// KEYS: the service's list, the hash of request keys. ARGV: the expected head id, the entry's
// JSON without its seq (the position is only known here, under the script), its request key
// ('' for none). An entry already appended under the request key is returned as it is (2).
const APPEND = `if ARGV[3] ~= '' then
  local earlier = redis.call('HGET', KEYS[2], ARGV[3])
  if earlier then return {2, earlier} end
end
local last = redis.call('LINDEX', KEYS[1], -1)
local head = ''
if last then head = cjson.decode(last).id end
if head ~= ARGV[1] then return {0, last or ''} end
local entry = '{"seq":' .. (redis.call('LLEN', KEYS[1]) + 1) .. ',' .. string.sub(ARGV[2], 2)
redis.call('RPUSH', KEYS[1], entry)
if ARGV[3] ~= '' then redis.call('HSET', KEYS[2], ARGV[3], entry) end
return {1, entry}`

export function redisDeploymentLog(options: RedisDeploymentLogOptions): DeploymentLog {
  const prefix = options.keyPrefix ?? 'ops-catalogue:'
  // Every call is bounded: a frozen Redis gives a clear error within seconds, never a hang.
  const client = new Redis(options.url, {
    connectTimeout: CALL_TIMEOUT_MS,
    commandTimeout: CALL_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    lazyConnect: false,
  })
  // Errors surface on the calls that fail; without a listener ioredis would also print them.
  client.on('error', () => {})
  const keyOf = (service: string) => `${prefix}deployments:${service}`
  const requestKeys = `${prefix}request-keys`

  return {
    async seed(service, entries) {
      const rows = entries.map((e, i) =>
        JSON.stringify({ seq: i + 1, id: seedId(service, i), service, ...e }),
      )
      return (await client.eval(SEED, 1, keyOf(service), ...rows)) === 1
    },
    async history(service) {
      return (await client.lrange(keyOf(service), 0, -1)).map(parse)
    },
    async append(entry: NewDeployment, expected): Promise<AppendResult> {
      const { seq: _, ...rest } = stamp(entry, randomUUID(), 0, new Date())
      const [ok, text] = (await client.eval(
        APPEND,
        2,
        keyOf(entry.service),
        requestKeys,
        expected ?? '',
        JSON.stringify(rest),
        entry.requestKey ?? '',
      )) as [number, string]
      if (ok === 1) return { ok: true, deployment: parse(text) }
      if (ok === 2) return { ok: true, deployment: parse(text), earlier: true }
      return { ok: false, head: text === '' ? undefined : parse(text) }
    },
    async byRequestKey(key) {
      const text = await client.hget(requestKeys, key)
      return text === null ? undefined : parse(text)
    },
    async close() {
      await client.quit().catch(() => client.disconnect())
    },
  }
}

function parse(text: string): Deployment {
  return JSON.parse(text) as Deployment
}
