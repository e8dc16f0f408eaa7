/**
 * @module redis-replay-store
 * A ReplayStore in Redis, shared by every process and host that reaches the server. Each
 * record is a hash whose key expires natively. Every state change is one Lua script, so
 * check-and-claim and every fenced update are atomic, and leases are measured on the
 * server's clock (TIME) so clients with skewed clocks agree on when a lease ran out. A claim's
 * deadline is held against that clock too, in the script: a claim that sat behind a stalled
 * server past it writes nothing. The epoch is one more key beside the records: a Redis restarted
 * without persistence, or flushed, has none, and a claim naming the old one answers `stale`.
 */
import {
  assertClaimArguments,
  assertKnownOptions,
  type ClaimResult,
  claimDeadline,
  newEpoch,
  newFence,
  type OptionNames,
  positiveInteger,
  type ReplayRecordView,
  type ReplayStore,
  withStoreTimeout,
} from '@tessera/core/ports'
import {
  CONNECTION_OPTION_NAMES,
  type ConnectionOptions,
  evalScript,
  NOW_MS,
  openConnection,
  script,
} from './redis-connection.ts'

/** The connection of `redisReplayStore`, the prefix of its keys and the bound on its calls. */
export interface RedisReplayStoreOptions extends ConnectionOptions {
  /** Prefix of every record key. Default `tessera:replay:`. */
  keyPrefix?: string
  /** Bound on every call, including connecting. Default 2000. */
  timeoutMs?: number
}

const REPLAY_STORE_OPTION_NAMES = {
  ...CONNECTION_OPTION_NAMES,
  keyPrefix: true,
  timeoutMs: true,
} as const satisfies OptionNames<RedisReplayStoreOptions>

// Fields: s status, w what, f fence, l lease end, e record end (both ms, server clock), o outcome.
// KEYS: the record, the epoch. ARGV[5]: the caller's deadline (ms; 0: none), held against the
// server's clock before anything; ARGV[6]: the epoch the claim names ('' for none).
const CLAIM = `${NOW_MS}
local deadline = tonumber(ARGV[5])
if deadline > 0 and now > deadline then return {'late'} end
if ARGV[6] ~= '' and redis.call('GET', KEYS[2]) ~= ARGV[6] then return {'stale'} end
local r = redis.call('HMGET', KEYS[1], 's', 'w', 'o', 'l')
if r[1] == 'done' then return {'done', r[2], r[3] or ''} end
local previous = ''
if r[1] == 'in_progress' then
  if tonumber(r[4]) > now then return {'in_progress', r[2]} end
  previous = 'abandoned'
end
local lease = tonumber(ARGV[3])
local keep = math.max(tonumber(ARGV[4]), lease)
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 's', 'in_progress', 'f', ARGV[1], 'w', ARGV[2], 'l', now + lease, 'e', now + keep)
redis.call('PEXPIRE', KEYS[1], keep)
return {'claimed', previous}`

const RENEW = `${NOW_MS}
local r = redis.call('HMGET', KEYS[1], 's', 'f', 'e')
if r[1] ~= 'in_progress' or r[2] ~= ARGV[1] then return 0 end
local lease = now + tonumber(ARGV[2])
local keep = math.max(tonumber(r[3]), lease)
redis.call('HSET', KEYS[1], 'l', lease, 'e', keep)
redis.call('PEXPIREAT', KEYS[1], keep)
return 1`

// HSET keeps the key's expiry, so a done record lives until the claim's ttl.
const COMPLETE = `if redis.call('HGET', KEYS[1], 'f') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 's', 'done', 'o', ARGV[2])
return 1`

const RELEASE = `if redis.call('HGET', KEYS[1], 'f') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`

const INSPECT = `${NOW_MS}
local r = redis.call('HMGET', KEYS[1], 's', 'w', 'o', 'l')
if not r[1] then return {} end
if r[1] == 'in_progress' and tonumber(r[4]) <= now then return {'abandoned', r[2]} end
return {r[1], r[2], r[3] or ''}`

// KEYS: the epoch. ARGV: a new epoch, kept only if there is none.
const EPOCH = `redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])`

const SCRIPTS = {
  claim: script(CLAIM),
  epoch: script(EPOCH),
  renew: script(RENEW),
  complete: script(COMPLETE),
  release: script(RELEASE),
  inspect: script(INSPECT),
}

/** A ReplayStore in Redis, for the single-use records of every process and host that reaches it. */
export function redisReplayStore(options: RedisReplayStoreOptions): ReplayStore {
  assertKnownOptions(options, REPLAY_STORE_OPTION_NAMES, 'redisReplayStore', { required: true })
  const timeoutMs = positiveInteger(options.timeoutMs ?? 2000, 'timeoutMs')
  const prefix = options.keyPrefix ?? 'tessera:replay:'
  const { client, release } = openConnection(options, 'redisReplayStore', { timeoutMs })

  let closed = false

  // A closed store refuses even on a client that stays open (a borrowed or shared one).
  // Record keys are nonces (base64url) and `dpop:…` keys: none starts with ':'.
  const epochKey = `${prefix}:epoch`
  const run = (
    operation: keyof typeof SCRIPTS,
    keys: string[],
    args: (string | number)[],
  ): Promise<unknown> => {
    const reply = closed
      ? Promise.reject(new Error('redis replay store is not open'))
      : evalScript(client, SCRIPTS[operation], keys, args)
    return withStoreTimeout(operation, reply, timeoutMs)
  }
  const call = (operation: keyof typeof SCRIPTS, key: string, ...args: (string | number)[]) =>
    run(operation, [prefix + key], args)

  return {
    async claim(key, what, leaseMs, ttlMs, conditions): Promise<ClaimResult> {
      assertClaimArguments(key, leaseMs, ttlMs, conditions)
      const fence = newFence()
      const [kind, first, second] = strings(
        await run(
          'claim',
          [prefix + key, epochKey],
          [
            fence,
            what,
            Math.ceil(leaseMs),
            Math.ceil(ttlMs),
            // Its own timeout bounds the claim too: whichever gives up first sets the deadline.
            claimDeadline(timeoutMs, conditions?.deadline),
            conditions?.epoch ?? '',
          ],
        ),
      )
      if (kind === 'late' || kind === 'stale') return { kind }
      if (kind === 'done') return { kind, what: first ?? '', outcome: second ?? '' }
      if (kind === 'in_progress') return { kind, what: first ?? '' }
      return first === 'abandoned'
        ? { kind: 'claimed', fence, previous: 'abandoned' }
        : { kind: 'claimed', fence }
    },
    epoch: async () => String(await run('epoch', [epochKey], [newEpoch()])),
    renew: async (key, fence, leaseMs) => (await call('renew', key, fence, Math.ceil(leaseMs))) === 1,
    complete: async (key, fence, outcome) => (await call('complete', key, fence, outcome)) === 1,
    async release(key, fence) {
      await call('release', key, fence)
    },
    async inspect(key): Promise<ReplayRecordView | undefined> {
      const [status, what = '', outcome = ''] = strings(await call('inspect', key))
      if (status === 'done') return { status, what, outcome }
      if (status === 'in_progress' || status === 'abandoned') return { status, what }
      return undefined
    },
    async close() {
      closed = true
      await release()
    },
  }
}

function strings(reply: unknown): (string | undefined)[] {
  if (!Array.isArray(reply)) return []
  return reply.map((item: unknown) => (typeof item === 'string' ? item : undefined))
}
