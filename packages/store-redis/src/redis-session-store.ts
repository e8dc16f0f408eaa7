/**
 * @module redis-session-store
 * Handshake-era sessions (2025-11-25) in Redis, so every instance behind a load balancer serves
 * every session. Each session is one JSON string whose key expires natively after `idleMs`
 * without use; `get` refreshes that expiry. With `maxSessions`, a sorted set of session ids
 * scored by last use (server clock) counts live sessions without SCAN: the create script trims
 * the members idle past `idleMs` and refuses when the set is full, atomically. Without it,
 * `count` (read only when metrics are collected) walks the session keys with SCAN.
 */
import {
  assertKnownOptions,
  MAX_SUBSCRIPTIONS,
  type OptionNames,
  positiveInteger,
  type SessionChange,
  type SessionRecord,
  type SessionStore,
  withTimeout,
} from '@tessera/core/ports'
import type { Redis } from 'ioredis'
import {
  CONNECTION_OPTION_NAMES,
  type ConnectionOptions,
  evalScript,
  NOW_MS,
  openConnection,
  script,
} from './redis-connection.ts'

/** The connection of `redisSessionStore`, the prefix of its keys, and how long and how many sessions live. */
export interface RedisSessionStoreOptions extends ConnectionOptions {
  /** Prefix of every key. Default `tessera:session:`. */
  keyPrefix?: string
  /** A session unused this long ends (default 30 minutes). */
  idleMs?: number
  /** Live sessions kept at most; `create` answers false beyond it. Default: no limit. */
  maxSessions?: number
  /** Bound on every call, including connecting. Default 2000. */
  timeoutMs?: number
}

const SESSION_STORE_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  keyPrefix: true,
  idleMs: true,
  maxSessions: true,
  timeoutMs: true,
} as const satisfies OptionNames<RedisSessionStoreOptions>

// KEYS: session, index. ARGV: json, idleMs, max (0 = no limit), id.
const CREATE = `local idle = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
if max > 0 then
  ${NOW_MS}
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. (now - idle))
  if redis.call('ZCARD', KEYS[2]) >= max then return 0 end
  redis.call('ZADD', KEYS[2], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[2], idle)
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', idle)
return 1`

// KEYS: session, index. ARGV: idleMs, max, id. Returns the JSON, or false when gone.
const GET = `local value = redis.call('GET', KEYS[1])
local max = tonumber(ARGV[2])
if not value then
  if max > 0 then redis.call('ZREM', KEYS[2], ARGV[3]) end
  return false
end
local idle = tonumber(ARGV[1])
redis.call('PEXPIRE', KEYS[1], idle)
if max > 0 then
  ${NOW_MS}
  redis.call('ZADD', KEYS[2], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[2], idle)
end
return value`

// KEYS: session. ARGV: change kind, value, max subscriptions. Applies one change in place
// (never a read-modify-write from the client), keeps the expiry, never revives an ended session.
// cjson writes an empty Lua table as {}: readers normalise subscriptions back to [].
const APPLY = `local value = redis.call('GET', KEYS[1])
if not value then return false end
local s = cjson.decode(value)
local kind, arg = ARGV[1], ARGV[2]
local subs = s.subscriptions
if type(subs) ~= 'table' then subs = {} end
if kind == 'initialized' then
  s.initialized = true
elseif kind == 'log-level' then
  s.logLevel = arg
elseif kind == 'subscribe' then
  local found = false
  for _, uri in ipairs(subs) do if uri == arg then found = true end end
  if not found and #subs < tonumber(ARGV[3]) then table.insert(subs, arg) end
  s.subscriptions = subs
elseif kind == 'unsubscribe' then
  local kept = {}
  for _, uri in ipairs(subs) do if uri ~= arg then table.insert(kept, uri) end end
  s.subscriptions = kept
else
  return redis.error_reply('unknown session change')
end
local out = cjson.encode(s)
redis.call('SET', KEYS[1], out, 'KEEPTTL')
return out`

// KEYS: session, index. ARGV: id. Returns 1 when a live session was removed.
const DELETE = `local removed = redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return removed`

// KEYS: index. ARGV: idleMs. The live members of the index (kept only with maxSessions).
const COUNT = `${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - tonumber(ARGV[1])))
return redis.call('ZCARD', KEYS[1])`

const SCRIPTS = {
  create: script(CREATE),
  get: script(GET),
  apply: script(APPLY),
  delete: script(DELETE),
  count: script(COUNT),
}

/** Keys asked for per SCAN step when counting sessions without an index. */
const SCAN_BATCH = 1000

/** A SessionStore in Redis: every instance that reaches it serves every handshake-era session. */
export function redisSessionStore(options: RedisSessionStoreOptions): SessionStore {
  assertKnownOptions(options, SESSION_STORE_OPTION_NAMES, 'redisSessionStore', { required: true })
  const timeoutMs = positiveInteger(options.timeoutMs ?? 2000, 'timeoutMs')
  const idleMs = positiveInteger(options.idleMs ?? 30 * 60_000, 'idleMs')
  const max = options.maxSessions === undefined ? 0 : positiveInteger(options.maxSessions, 'maxSessions')
  const prefix = options.keyPrefix ?? 'tessera:session:'
  const { client, release } = openConnection(options, 'redisSessionStore', { timeoutMs })
  // Session ids are base64url (no ':'), so `s:<id>` never meets the index key.
  const keyOf = (id: string) => `${prefix}s:${id}`
  const index = `${prefix}index`

  let closed = false
  // A closed store refuses even on a client that stays open (a borrowed or shared one).
  const assertOpen = () => {
    if (closed) throw new Error('redis session store is not open')
  }

  const run = async (
    operation: keyof typeof SCRIPTS,
    id: string,
    ...args: (string | number)[]
  ): Promise<unknown> => {
    assertOpen()
    return withTimeout(
      `session store ${operation}`,
      evalScript(client, SCRIPTS[operation], [keyOf(id), index], args),
      timeoutMs,
    )
  }

  return {
    async create(session) {
      return (await run('create', session.id, JSON.stringify(session), idleMs, max, session.id)) === 1
    },
    async get(id) {
      return readSession(await run('get', id, idleMs, max, id))
    },
    async apply(id, change) {
      assertOpen()
      const value = await withTimeout(
        'session store apply',
        evalScript(
          client,
          SCRIPTS.apply,
          [keyOf(id)],
          [change.kind, changeArgument(change), MAX_SUBSCRIPTIONS],
        ),
        timeoutMs,
      )
      return readSession(value)
    },
    async delete(id) {
      return (await run('delete', id, id)) === 1
    },
    async count() {
      assertOpen()
      if (max > 0) {
        const n = evalScript(client, SCRIPTS.count, [index], [idleMs])
        return Number(await withTimeout('session store count', n, timeoutMs))
      }
      // No index without maxSessions: the session keys themselves (expired ones are never listed).
      return withTimeout('session store count', countKeys(client, `${prefix}s:*`), timeoutMs)
    },
    async close() {
      closed = true
      await release()
    },
  }
}

async function countKeys(client: Redis, pattern: string): Promise<number> {
  let cursor = '0'
  let n = 0
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_BATCH)
    cursor = next
    n += keys.length
  } while (cursor !== '0')
  return n
}

function changeArgument(change: SessionChange): string {
  if (change.kind === 'log-level') return change.level
  if (change.kind === 'subscribe' || change.kind === 'unsubscribe') return change.uri
  return ''
}

function readSession(value: unknown): SessionRecord | undefined {
  if (typeof value !== 'string') return undefined
  const session = JSON.parse(value) as SessionRecord
  if (!Array.isArray(session.subscriptions)) session.subscriptions = []
  return session
}
