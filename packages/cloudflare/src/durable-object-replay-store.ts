/**
 * @module durable-object-replay-store
 * Single-use records in the Durable Object: each port call is one RPC, and the object runs the
 * check and the write of a claim as one step. A call that fails is a `SingleUseStoreError`, so the
 * guard does nothing rather than act without a record.
 */
import { assertClaimArguments, type ReplayStore, toStoreError } from '@tessera/core/ports'
import type { StubOf } from './object-stub.ts'

export function durableObjectReplayStore(stub: StubOf): ReplayStore {
  let closed = false
  const call = async <T>(operation: string, body: () => Promise<T>): Promise<T> => {
    try {
      if (closed) throw new Error('the Durable Object replay store is closed')
      return await body()
    } catch (error) {
      throw toStoreError(operation, error)
    }
  }
  return {
    claim(key, what, leaseMs, ttlMs, conditions) {
      assertClaimArguments(key, leaseMs, ttlMs, conditions)
      return call('claim', () => stub().claim(key, what, leaseMs, ttlMs, conditions))
    },
    epoch: () => call('epoch', () => stub().epoch()),
    renew: (key, fence, leaseMs) => call('renew', () => stub().renew(key, fence, leaseMs)),
    complete: (key, fence, outcome) => call('complete', () => stub().complete(key, fence, outcome)),
    release: (key, fence) => call('release', () => stub().release(key, fence)),
    inspect: (key) => call('inspect', () => stub().inspect(key)),
    async close() {
      closed = true
    },
  }
}
