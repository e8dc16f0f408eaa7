/**
 * @module dpop-replay.test
 * The ledger over a ReplayStore: a proof's jti is recorded once for every worker sharing the store.
 */
import { memoryReplayStore } from '@tessera/core/ports'
import { describe, expect, it } from 'vitest'
import { checkFor, clientKey, signProof } from './dpop-proof.fixture.ts'
import { proofAcceptanceWindowMs, verifyDpopProof } from './dpop-proof.ts'
import { proofKey, type ReplayStoreLike, replayStoreLedger } from './dpop-replay.ts'

const JKT = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs'

describe('proofKey', () => {
  it('bindsTheJtiToTheProofKey', () => {
    expect(proofKey(JKT, 'jti-1')).toMatch(new RegExp(`^dpop:${JKT}:[A-Za-z0-9_-]{43}$`))
    expect(proofKey(JKT, 'jti-1')).toBe(proofKey(JKT, 'jti-1'))
  })

  it('keepsTwoClientsSameJtiApart', () => {
    expect(proofKey(JKT, 'jti-1')).not.toBe(proofKey(`${JKT.slice(0, -1)}Y`, 'jti-1'))
  })

  it('keepsNoClientChosenCharactersOfTheJti', () => {
    const key = proofKey(JKT, 'a:b\nc'.repeat(60))
    expect(key).not.toContain('a:b')
    expect(key.length).toBe(`dpop:${JKT}:`.length + 43)
  })
})

describe('replayStoreLedger', () => {
  it('recordsAProofOnceAndRefusesItTheSecondTime', async () => {
    const ledger = replayStoreLedger(memoryReplayStore())
    expect(await ledger.recordOnce(proofKey(JKT, 'jti-1'), 65_000)).toBe(true)
    expect(await ledger.recordOnce(proofKey(JKT, 'jti-1'), 65_000)).toBe(false)
    expect(await ledger.recordOnce(proofKey(JKT, 'jti-2'), 65_000)).toBe(true)
  })

  it('detectsAReplayAcrossWorkersSharingOneStore', async () => {
    const shared = memoryReplayStore()
    const workerA = replayStoreLedger(shared)
    const workerB = replayStoreLedger(shared)
    expect(await workerA.recordOnce(proofKey(JKT, 'jti-1'), 65_000)).toBe(true)
    expect(await workerB.recordOnce(proofKey(JKT, 'jti-1'), 65_000)).toBe(false)
    expect(await workerA.recordOnce(proofKey(JKT, 'jti-1'), 65_000)).toBe(false)
  })

  it('forgetsAProofOnlyAfterItsAcceptanceWindow', async () => {
    let now = 0
    const ledger = replayStoreLedger(memoryReplayStore({ now: () => now }))
    expect(await ledger.recordOnce('k', 65_000)).toBe(true)
    now = 64_999
    expect(await ledger.recordOnce('k', 65_000)).toBe(false)
    now = 65_000
    expect(await ledger.recordOnce('k', 65_000)).toBe(true)
  })

  it('claimsWithTheTtlAsLeaseAndNamesWhatItRecords', async () => {
    const calls: unknown[][] = []
    const store: ReplayStoreLike = {
      async claim(...args) {
        calls.push(args)
        return { kind: 'claimed' }
      },
    }
    expect(await replayStoreLedger(store).recordOnce('k', 1_000.4)).toBe(true)
    expect(calls).toEqual([['k', 'dpop-proof', 1_001, 1_001]])
  })

  it('treatsAClaimInProgressOrDoneAsUsed', async () => {
    for (const kind of ['in_progress', 'done'] as const) {
      const store: ReplayStoreLike = { claim: async () => ({ kind }) }
      expect(await replayStoreLedger(store).recordOnce('k', 1_000)).toBe(false)
    }
  })

  it('throwsWhenTheStoreCannotAnswer', async () => {
    const failure = new Error('store unreachable')
    const store: ReplayStoreLike = {
      claim: async () => {
        throw failure
      },
    }
    await expect(replayStoreLedger(store).recordOnce('k', 1_000)).rejects.toBe(failure)
  })

  it('refusesATtlThatIsNotPositive', async () => {
    const ledger = replayStoreLedger(memoryReplayStore())
    await expect(ledger.recordOnce('k', 0)).rejects.toThrow(RangeError)
    await expect(ledger.recordOnce('k', Number.NaN)).rejects.toThrow(RangeError)
  })

  it('refusesTheSameVerifiedProofOnTheSecondWorker', async () => {
    const key = await clientKey('ES256')
    const check = checkFor(key, await signProof(key))
    const shared = memoryReplayStore()
    const ttl = proofAcceptanceWindowMs(check)
    for (const [worker, expected] of [
      [replayStoreLedger(shared), true],
      [replayStoreLedger(shared), false],
    ] as const) {
      const { jkt, jti } = await verifyDpopProof(check)
      expect(await worker.recordOnce(proofKey(jkt, jti), ttl)).toBe(expected)
    }
  })
})
