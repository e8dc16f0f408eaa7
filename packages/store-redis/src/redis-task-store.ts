/**
 * @module redis-task-store
 * Tasks in Redis, so every instance behind a load balancer reads and changes every task. Each
 * task is one hash (its version and its JSON) whose key expires natively at the task's
 * `expiresAt`. Next to them, one sorted set per owner (`owner:` and the owner after the prefix)
 * holds the owner's task ids scored by their expiry (+inf for never). Creating and replacing are
 * scripts, atomic on the server: a task is created only where no live key is and while its owner
 * has fewer unexpired tasks than its bound (the set is pruned of expired ids, counted and added
 * to in the same script, so racing creates never pass the bound), and replaced only while the
 * stored version is the one the writer read (the replacement moves the id's score with the
 * expiry). The set expires with its latest task. A task stored before owner sets existed joins
 * its owner's set at its next replacement.
 * Under Redis persistence settings that may lose the last second of writes (the default `appendfsync
 * everysec`), a task acknowledged just before a crash of Redis itself can be lost; run Redis
 * with `appendfsync always` where that matters.
 */
import {
  assertKnownOptions,
  assertReplacement,
  type OptionNames,
  positiveInteger,
  type TaskCreation,
  type TaskRecord,
  type TaskStore,
  withTimeout,
} from '@tessera/core/ports'
import type { Redis } from 'ioredis'
import {
  CONNECTION_OPTION_NAMES,
  type ConnectionOptions,
  evalScript,
  openConnection,
  script,
} from './redis-connection.ts'

/** The connection of `redisTaskStore`, the prefix of its keys and the bound on its calls. */
export interface RedisTaskStoreOptions extends ConnectionOptions {
  /** Prefix of every key. Default `tessera:task:`. */
  keyPrefix?: string
  /** Bound on every call, including connecting. Default 2000. */
  timeoutMs?: number
}

const TASK_STORE_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  keyPrefix: true,
  timeoutMs: true,
} as const satisfies OptionNames<RedisTaskStoreOptions>

// Lua: gives the owner set KEYS[2] the expiry of its latest task, so it never outlives its tasks.
const OWNER_SET_EXPIRY = `if redis.call('ZCOUNT', KEYS[2], '+inf', '+inf') > 0 then
  redis.call('PERSIST', KEYS[2])
else
  local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
  if last[2] then redis.call('PEXPIREAT', KEYS[2], string.format('%.0f', tonumber(last[2]))) end
end`

// KEYS: task, owner set. ARGV: version, json, expiresAt in ms ('' for never), id, now in ms,
// most tasks of the owner ('' for no bound).
const CREATE = `if redis.call('EXISTS', KEYS[1]) == 1 then return 'taken' end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[5])
if ARGV[6] ~= '' and redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[6]) then return 'owner-full' end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'd', ARGV[2])
if ARGV[3] == '' then
  redis.call('ZADD', KEYS[2], '+inf', ARGV[4])
else
  redis.call('PEXPIREAT', KEYS[1], ARGV[3])
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
end
${OWNER_SET_EXPIRY}
return 'created'`

// KEYS: task, owner set. ARGV: version read, next version, json, expiresAt in ms ('' for never),
// id. pcall: an id that names another kind of key (an owner set) is no task, not an error.
const REPLACE = `local v = redis.pcall('HGET', KEYS[1], 'v')
if type(v) ~= 'string' or v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'd', ARGV[3])
if ARGV[4] == '' then
  redis.call('PERSIST', KEYS[1])
  redis.call('ZADD', KEYS[2], '+inf', ARGV[5])
else
  redis.call('PEXPIREAT', KEYS[1], ARGV[4])
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
end
${OWNER_SET_EXPIRY}
return 1`

const SCRIPTS = { create: script(CREATE), replace: script(REPLACE) }

/** A TaskStore in Redis: every instance that reaches it reads and changes every task. */
export function redisTaskStore(options: RedisTaskStoreOptions): TaskStore {
  assertKnownOptions(options, TASK_STORE_OPTION_NAMES, 'redisTaskStore', { required: true })
  const timeoutMs = positiveInteger(options.timeoutMs ?? 2000, 'timeoutMs')
  const prefix = options.keyPrefix ?? 'tessera:task:'
  const { client, release } = openConnection(options, 'redisTaskStore', { timeoutMs })
  const keyOf = (id: string) => `${prefix}${id}`
  // Task ids are base64url: no id the store is given to create contains ':'.
  const ownerKeyOf = (owner: string) => `${prefix}owner:${owner}`
  let closed = false
  const assertOpen = () => {
    if (closed) throw new Error('redis task store is not open')
  }
  const expiry = (task: TaskRecord) => (task.expiresAt === null ? '' : String(task.expiresAt))

  return {
    async create(task, limits) {
      assertOpen()
      const max = limits?.maxPerOwner === undefined ? '' : String(limits.maxPerOwner)
      const created = await withTimeout(
        'task store create',
        evalScript(
          client,
          SCRIPTS.create,
          [keyOf(task.id), ownerKeyOf(task.owner)],
          [task.version, JSON.stringify(task), expiry(task), task.id, Date.now(), max],
        ),
        timeoutMs,
      )
      return created as TaskCreation
    },
    async get(id) {
      assertOpen()
      const json = await withTimeout('task store get', readData(client, keyOf(id)), timeoutMs)
      if (json === null) return undefined
      const task = JSON.parse(json) as TaskRecord
      // The key expires on the Redis clock; a record past its own expiry is gone here too.
      return task.expiresAt !== null && task.expiresAt <= Date.now() ? undefined : task
    },
    async replace(id, version, next) {
      assertOpen()
      assertReplacement(id, version, next)
      const replaced = await withTimeout(
        'task store replace',
        evalScript(
          client,
          SCRIPTS.replace,
          [keyOf(id), ownerKeyOf(next.owner)],
          [version, next.version, JSON.stringify(next), expiry(next), id],
        ),
        timeoutMs,
      )
      return replaced === 1
    },
    async close() {
      closed = true
      await release()
    },
  }
}

/** A task's JSON; null when there is none, an id that names another kind of key (an owner set) too. */
async function readData(client: Redis, key: string): Promise<string | null> {
  try {
    return await client.hget(key, 'd')
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('WRONGTYPE')) return null
    throw error
  }
}
