/**
 * @module memory-replay-store
 * A ReplayStore in process memory. Correct for one process only (a stdio server, tests):
 * a retry that lands on another worker or after a restart will not see the record, and since its
 * epoch is new in every process, a state sealed before a restart is refused rather than risked.
 */
import { assertKnownOptions, type OptionNames } from '../../option-checks.ts'
import type { ClaimResult, ReplayRecordView, ReplayStore } from './replay-store.ts'
import { assertClaimArguments, newEpoch, newFence, pastDeadline } from './replay-store.ts'

/** Options of `memoryReplayStore`. */
export interface MemoryReplayStoreOptions {
  /** Clock in epoch milliseconds; injectable so tests can move time without waiting. */
  now?: () => number
  /**
   * Sweep expired records once this many claims have been made since the last sweep (default
   * 1024), or, while the store holds more records than that, once as many claims as it holds
   * records: a sweep walks every record, so it then costs at most one record a claim.
   */
  sweepEvery?: number
}

const MEMORY_REPLAY_OPTION_NAMES = {
  now: true,
  sweepEvery: true,
} as const satisfies OptionNames<MemoryReplayStoreOptions>

interface MemoryRecord {
  what: string
  status: 'in_progress' | 'done'
  fence: string
  leaseUntil: number
  expiresAt: number
  outcome?: string
}

/**
 * A `ReplayStore` in this process's memory: the default of a server without `stores.replay`, and
 * right for one process only (stdio, tests), since a retry that reaches another process or comes
 * after a restart finds no record.
 */
export function memoryReplayStore(options: MemoryReplayStoreOptions = {}): ReplayStore {
  assertKnownOptions(options, MEMORY_REPLAY_OPTION_NAMES, 'memoryReplayStore')
  const now = options.now ?? Date.now
  const sweepEvery = options.sweepEvery ?? 1024
  const records = new Map<string, MemoryRecord>()
  const epoch = newEpoch()
  let claimsSinceSweep = 0

  // A record past its ttl is as good as absent; dropping it on read keeps the map bounded by live keys.
  const live = (key: string): MemoryRecord | undefined => {
    const record = records.get(key)
    if (record && record.expiresAt <= now()) {
      records.delete(key)
      return undefined
    }
    return record
  }

  const sweep = (): void => {
    claimsSinceSweep = 0
    const at = now()
    for (const [key, record] of records) if (record.expiresAt <= at) records.delete(key)
  }

  const held = (key: string, fence: string): MemoryRecord | undefined => {
    const record = live(key)
    return record?.fence === fence ? record : undefined
  }

  return {
    async claim(key, what, leaseMs, ttlMs, conditions): Promise<ClaimResult> {
      assertClaimArguments(key, leaseMs, ttlMs, conditions)
      if (++claimsSinceSweep >= sweepEvery && claimsSinceSweep >= records.size) sweep()
      const at = now()
      if (pastDeadline(conditions?.deadline, at)) return { kind: 'late' }
      if (conditions?.epoch !== undefined && conditions.epoch !== epoch) return { kind: 'stale' }
      const existing = live(key)
      if (existing?.status === 'done')
        return { kind: 'done', what: existing.what, outcome: existing.outcome ?? '' }
      if (existing && existing.leaseUntil > at) return { kind: 'in_progress', what: existing.what }
      const fence = newFence()
      const leaseUntil = at + leaseMs
      records.set(key, {
        what,
        status: 'in_progress',
        fence,
        leaseUntil,
        expiresAt: at + Math.max(ttlMs, leaseMs),
      })
      return existing ? { kind: 'claimed', fence, previous: 'abandoned' } : { kind: 'claimed', fence }
    },

    async epoch() {
      return epoch
    },

    async renew(key, fence, leaseMs) {
      const record = held(key, fence)
      if (record?.status !== 'in_progress') return false
      record.leaseUntil = now() + leaseMs
      record.expiresAt = Math.max(record.expiresAt, record.leaseUntil)
      return true
    },

    async complete(key, fence, outcome) {
      // A done record under the same fence answers true: a retried complete is not a lost lease.
      const record = held(key, fence)
      if (!record) return false
      record.status = 'done'
      record.outcome = outcome
      return true
    },

    async release(key, fence) {
      if (held(key, fence)) records.delete(key)
    },

    async inspect(key): Promise<ReplayRecordView | undefined> {
      const record = live(key)
      if (!record) return undefined
      if (record.status === 'done')
        return { status: 'done', what: record.what, outcome: record.outcome ?? '' }
      return { status: record.leaseUntil > now() ? 'in_progress' : 'abandoned', what: record.what }
    },

    async close() {
      records.clear()
    },
  }
}
