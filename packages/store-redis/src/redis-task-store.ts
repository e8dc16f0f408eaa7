/**
 * @module redis-task-store
 * Tasks in Redis, so every instance behind a load balancer reads and changes every task. Each
 * task is one hash (its version and its JSON) whose key expires natively at the task's
 * `expiresAt`. Creating and replacing are scripts, atomic on the server: a task is created only
 * where no live key is, and replaced only while the stored version is the one the writer read.
 * Under Redis persistence settings that may lose the last second of writes (the default `appendfsync
 * everysec`), a task acknowledged just before a crash of Redis itself can be lost; run Redis
 * with `appendfsync always` where that matters.
 */
import {
  assertReplacement,
  positiveInteger,
  type TaskRecord,
  type TaskStore,
  withTimeout,
} from '@tessera/core/ports'
import type { Redis } from 'ioredis'
import { closeOwned, connect, evalScript, script } from './redis-client.ts'

export interface RedisTaskStoreOptions {
  /** Connection URL (`redis://…`); the store owns that connection and closes it. */
  url?: string
  /** An existing client; the store does not close it. */
  client?: Redis
  /** Prefix of every key. Default `tessera:task:`. */
  keyPrefix?: string
  /** Bound on every call, including connecting. Default 2000. */
  timeoutMs?: number
}

// KEYS: task. ARGV: version, json, expiresAt in ms ('' for never).
const CREATE = `if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'd', ARGV[2])
if ARGV[3] ~= '' then redis.call('PEXPIREAT', KEYS[1], ARGV[3]) end
return 1`

// KEYS: task. ARGV: version read, next version, json, expiresAt in ms ('' for never).
const REPLACE = `local v = redis.call('HGET', KEYS[1], 'v')
if not v or v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'd', ARGV[3])
if ARGV[4] == '' then redis.call('PERSIST', KEYS[1]) else redis.call('PEXPIREAT', KEYS[1], ARGV[4]) end
return 1`

const SCRIPTS = { create: script(CREATE), replace: script(REPLACE) }

export function redisTaskStore(options: RedisTaskStoreOptions): TaskStore {
  const timeoutMs = positiveInteger(options.timeoutMs ?? 2000, 'timeoutMs')
  const owned = options.client === undefined
  const client = options.client ?? connect(options.url, timeoutMs, 'redisTaskStore')
  const prefix = options.keyPrefix ?? 'tessera:task:'
  const keyOf = (id: string) => `${prefix}${id}`
  let closed = false
  const assertOpen = () => {
    if (closed) throw new Error('redis task store is not open')
  }
  const expiry = (task: TaskRecord) => (task.expiresAt === null ? '' : String(task.expiresAt))

  return {
    async create(task) {
      assertOpen()
      const created = await withTimeout(
        'task store create',
        evalScript(
          client,
          SCRIPTS.create,
          [keyOf(task.id)],
          [task.version, JSON.stringify(task), expiry(task)],
        ),
        timeoutMs,
      )
      return created === 1
    },
    async get(id) {
      assertOpen()
      const json = await withTimeout('task store get', client.hget(keyOf(id), 'd'), timeoutMs)
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
          [keyOf(id)],
          [version, next.version, JSON.stringify(next), expiry(next)],
        ),
        timeoutMs,
      )
      return replaced === 1
    },
    async close() {
      closed = true
      await closeOwned(client, owned)
    },
  }
}
