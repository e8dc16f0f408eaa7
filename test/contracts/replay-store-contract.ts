/**
 * @module replay-store-contract
 * The behaviour every ReplayStore must show, as a vitest suite a store's own test file
 * calls. Only tests import this module (it imports vitest); no package exports it. Leases
 * are short and real waiting is kept to the few cases that need it.
 */
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { ClaimResult, ReplayStore } from '@tessera/core/ports'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

export interface ReplayStoreContractOptions {
  /** When set, the suite is skipped and the reason is part of its name. */
  skip?: string
}

type MakeStore = () => ReplayStore | Promise<ReplayStore>

const LONG = 60_000

function fenceOf(result: ClaimResult): string {
  if (result.kind !== 'claimed') throw new Error(`expected a claim, got ${JSON.stringify(result)}`)
  return result.fence
}

/** Registers the contract suite for one store; `make` is called once per connection needed. */
export function describeReplayStore(
  name: string,
  make: MakeStore,
  options: ReplayStoreContractOptions = {},
): void {
  if (options.skip !== undefined) {
    describe.skip(`ReplayStore contract: ${name} (skipped: ${options.skip})`, () => {
      it.skip(`skippedBecause${options.skip}`, () => {})
    })
    return
  }
  describe(`ReplayStore contract: ${name}`, () => {
    const opened: ReplayStore[] = []
    let store: ReplayStore
    const run = randomBytes(6).toString('hex')
    let counter = 0
    const freshKey = (): string => `contract:${run}:${++counter}`

    beforeAll(async () => {
      store = await make()
      opened.push(store)
    })
    afterAll(async () => {
      await Promise.all(opened.map((s) => s.close()))
    })

    registerBasics(() => store, freshKey)
    registerFencing(() => store, freshKey)
    registerExpiry(() => store, freshKey)
    registerConcurrency(
      () => store,
      freshKey,
      async () => {
        const second = await make()
        opened.push(second)
        return second
      },
    )
  })
}

function registerBasics(get: () => ReplayStore, freshKey: () => string): void {
  it('writesNothingForAClaimThatReachesItAfterItsDeadline', async () => {
    const key = freshKey()
    expect(await get().claim(key, 'rollback', LONG, LONG, { deadline: Date.now() - 1 })).toEqual({
      kind: 'late',
    })
    expect(await get().inspect(key)).toBeUndefined()
    expect(await get().claim(key, 'rollback', LONG, LONG)).toEqual({
      kind: 'claimed',
      fence: expect.any(String),
    })
  })

  it('keepsOneEpochAndClaimsOnIt', async () => {
    const epoch = await get().epoch()
    expect(epoch).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(await get().epoch()).toBe(epoch)
    const key = freshKey()
    expect(await get().claim(key, 'rollback', LONG, LONG, { epoch })).toEqual({
      kind: 'claimed',
      fence: expect.any(String),
    })
    expect(await get().claim(key, 'rollback', LONG, LONG, { epoch })).toEqual({
      kind: 'in_progress',
      what: 'rollback',
    })
  })

  it('writesNothingForAClaimThatNamesAnotherEpoch', async () => {
    const key = freshKey()
    expect(await get().claim(key, 'rollback', LONG, LONG, { epoch: 'an-epoch-of-another-store' })).toEqual({
      kind: 'stale',
    })
    expect(await get().inspect(key)).toBeUndefined()
  })

  it('claimsBeforeItsDeadlineAsWithoutOne', async () => {
    const key = freshKey()
    const result = await get().claim(key, 'rollback', LONG, LONG, { deadline: Date.now() + 60_000 })
    expect(result).toEqual({ kind: 'claimed', fence: expect.any(String) })
    expect(await get().claim(key, 'rollback', LONG, LONG, { deadline: Date.now() + 60_000 })).toEqual({
      kind: 'in_progress',
      what: 'rollback',
    })
  })

  it('claimsAFreshKeyWithAFenceAndNoPrevious', async () => {
    const key = freshKey()
    const result = await get().claim(key, 'rollback checkout to 2026.10.1', LONG, LONG)
    expect(result).toEqual({ kind: 'claimed', fence: expect.any(String) })
    expect(fenceOf(result).length).toBeGreaterThanOrEqual(16)
    expect(await get().inspect(key)).toEqual({
      status: 'in_progress',
      what: 'rollback checkout to 2026.10.1',
    })
  })

  it('answersInProgressWithWhatWasAcceptedWhileALiveLeaseIsHeld', async () => {
    const key = freshKey()
    fenceOf(await get().claim(key, 'first', LONG, LONG))
    expect(await get().claim(key, 'second', LONG, LONG)).toEqual({ kind: 'in_progress', what: 'first' })
  })

  it('answersDoneWithTheRecordedOutcomeAfterComplete', async () => {
    const key = freshKey()
    const fence = fenceOf(await get().claim(key, 'rollback', LONG, LONG))
    expect(await get().complete(key, fence, 'rolled back to 2026.10.1')).toBe(true)
    expect(await get().claim(key, 'rollback', LONG, LONG)).toEqual({
      kind: 'done',
      what: 'rollback',
      outcome: 'rolled back to 2026.10.1',
    })
    expect(await get().inspect(key)).toEqual({
      status: 'done',
      what: 'rollback',
      outcome: 'rolled back to 2026.10.1',
    })
  })

  it('treatsARepeatedCompleteUnderTheSameFenceAsSuccess', async () => {
    const key = freshKey()
    const fence = fenceOf(await get().claim(key, 'x', LONG, LONG))
    expect(await get().complete(key, fence, 'ok')).toBe(true)
    expect(await get().complete(key, fence, 'ok')).toBe(true)
  })

  it('deletesTheRecordOnReleaseSoAnHonestRetryCanClaimAgain', async () => {
    const key = freshKey()
    const fence = fenceOf(await get().claim(key, 'x', LONG, LONG))
    await get().release(key, fence)
    expect(await get().inspect(key)).toBeUndefined()
    expect(await get().claim(key, 'x', LONG, LONG)).toEqual({ kind: 'claimed', fence: expect.any(String) })
  })

  it('keepsKeysIndependentAndStoresTextVerbatim', async () => {
    const a = `${freshKey()}:ünï:cödé/'"%_*`
    const b = freshKey()
    const what = `rollback "checkout" → 2026.10.1 ${'x'.repeat(500)}`
    const fa = fenceOf(await get().claim(a, what, LONG, LONG))
    fenceOf(await get().claim(b, 'other', LONG, LONG))
    expect(await get().complete(a, fa, 'done ✓ \n line two')).toBe(true)
    expect(await get().inspect(a)).toEqual({ status: 'done', what, outcome: 'done ✓ \n line two' })
    expect(await get().inspect(b)).toEqual({ status: 'in_progress', what: 'other' })
    expect(await get().inspect(freshKey())).toBeUndefined()
  })
}

function registerFencing(get: () => ReplayStore, freshKey: () => string): void {
  it('renewsOnlyUnderTheHoldingFence', async () => {
    const key = freshKey()
    const fence = fenceOf(await get().claim(key, 'x', LONG, LONG))
    expect(await get().renew(key, fence, LONG)).toBe(true)
    expect(await get().renew(key, 'not-the-fence', LONG)).toBe(false)
    expect(await get().renew(freshKey(), fence, LONG)).toBe(false)
    expect(await get().complete(key, fence, 'ok')).toBe(true)
    expect(await get().renew(key, fence, LONG)).toBe(false)
  })

  it('refusesCompleteAndReleaseUnderAWrongFence', async () => {
    const key = freshKey()
    fenceOf(await get().claim(key, 'x', LONG, LONG))
    expect(await get().complete(key, 'not-the-fence', 'forged')).toBe(false)
    await get().release(key, 'not-the-fence')
    expect(await get().inspect(key)).toEqual({ status: 'in_progress', what: 'x' })
  })

  it('keepsARenewedLeaseAlivePastItsOriginalEnd', async () => {
    const key = freshKey()
    const fence = fenceOf(await get().claim(key, 'x', 250, LONG))
    await sleep(150)
    expect(await get().renew(key, fence, 400)).toBe(true)
    await sleep(200)
    expect(await get().claim(key, 'x', 250, LONG)).toEqual({ kind: 'in_progress', what: 'x' })
  })

  it('fencesAStaleExecutorOutOfAReclaimedRecordBothWays', async () => {
    const key = freshKey()
    const stale = fenceOf(await get().claim(key, 'x', 150, LONG))
    await sleep(200)
    const fresh = fenceOf(await get().claim(key, 'x', LONG, LONG))
    expect(fresh).not.toBe(stale)
    expect(await get().renew(key, stale, LONG)).toBe(false)
    expect(await get().complete(key, stale, 'stale outcome')).toBe(false)
    await get().release(key, stale)
    expect(await get().inspect(key)).toEqual({ status: 'in_progress', what: 'x' })
    expect(await get().complete(key, fresh, 'fresh outcome')).toBe(true)
    expect(await get().complete(key, stale, 'stale outcome')).toBe(false)
    await get().release(key, stale)
    expect(await get().inspect(key)).toEqual({ status: 'done', what: 'x', outcome: 'fresh outcome' })
  })
}

function registerExpiry(get: () => ReplayStore, freshKey: () => string): void {
  it('reportsAnExpiredLeaseAsAbandonedAndLetsTheNextClaimTakeItOver', async () => {
    const key = freshKey()
    fenceOf(await get().claim(key, 'rollback', 150, LONG))
    await sleep(200)
    expect(await get().inspect(key)).toEqual({ status: 'abandoned', what: 'rollback' })
    const retaken = await get().claim(key, 'rollback', LONG, LONG)
    expect(retaken).toEqual({ kind: 'claimed', fence: expect.any(String), previous: 'abandoned' })
    expect(await get().inspect(key)).toEqual({ status: 'in_progress', what: 'rollback' })
    expect(await get().claim(key, 'rollback', LONG, LONG)).toEqual({ kind: 'in_progress', what: 'rollback' })
  })

  it('forgetsADoneRecordAfterItsTtl', async () => {
    const key = freshKey()
    const fence = fenceOf(await get().claim(key, 'x', 100, 300))
    expect(await get().complete(key, fence, 'ok')).toBe(true)
    await sleep(150)
    expect((await get().claim(key, 'x', 100, 300)).kind).toBe('done')
    await sleep(250)
    expect(await get().inspect(key)).toBeUndefined()
    expect(await get().claim(key, 'x', 100, 300)).toEqual({ kind: 'claimed', fence: expect.any(String) })
  })

  it('keepsARecordAtLeastAsLongAsItsLeaseEvenWithAShorterTtl', async () => {
    const key = freshKey()
    const fence = fenceOf(await get().claim(key, 'x', 400, 50))
    await sleep(120)
    expect(await get().claim(key, 'x', 400, 50)).toEqual({ kind: 'in_progress', what: 'x' })
    expect(await get().complete(key, fence, 'ok')).toBe(true)
  })

  it('refusesRenewAndCompleteOnceTheRecordHasPassedItsTtl', async () => {
    const key = freshKey()
    const fence = fenceOf(await get().claim(key, 'x', 100, 100))
    await sleep(200)
    expect(await get().renew(key, fence, LONG)).toBe(false)
    expect(await get().complete(key, fence, 'late')).toBe(false)
    expect(await get().inspect(key)).toBeUndefined()
  })
}

function registerConcurrency(
  get: () => ReplayStore,
  freshKey: () => string,
  second: () => Promise<ReplayStore>,
): void {
  it('letsExactlyOneOfManyConcurrentClaimsOfAKeyWin', async () => {
    const key = freshKey()
    const results = await Promise.all(Array.from({ length: 25 }, () => get().claim(key, 'x', LONG, LONG)))
    expect(results.filter((r) => r.kind === 'claimed')).toHaveLength(1)
    expect(results.filter((r) => r.kind === 'in_progress')).toHaveLength(24)
  })

  it('letsExactlyOneOfManyConcurrentClaimsOfAnAbandonedKeyWin', async () => {
    const key = freshKey()
    fenceOf(await get().claim(key, 'x', 100, LONG))
    await sleep(150)
    const results = await Promise.all(Array.from({ length: 25 }, () => get().claim(key, 'x', LONG, LONG)))
    const winners = results.filter((r) => r.kind === 'claimed')
    expect(winners).toEqual([{ kind: 'claimed', fence: expect.any(String), previous: 'abandoned' }])
  })

  it('sharesRecordsAcrossTwoConnections', async () => {
    const other = await second()
    const key = freshKey()
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => get().claim(key, 'x', LONG, LONG)),
      ...Array.from({ length: 10 }, () => other.claim(key, 'x', LONG, LONG)),
    ])
    expect(results.filter((r) => r.kind === 'claimed')).toHaveLength(1)
    const winner = results.findIndex((r) => r.kind === 'claimed')
    const [holder, onlooker] = winner < 10 ? [get(), other] : [other, get()]
    expect(await onlooker.claim(key, 'x', LONG, LONG)).toEqual({ kind: 'in_progress', what: 'x' })
    expect(await holder.complete(key, fenceOf(results[winner]!), 'ok')).toBe(true)
    expect(await onlooker.claim(key, 'x', LONG, LONG)).toEqual({ kind: 'done', what: 'x', outcome: 'ok' })
  })

  it('givesEveryConnectionTheSameEpochMadeOnceUnderARace', async () => {
    const others = await Promise.all([second(), second(), second()])
    const epochs = await Promise.all([get(), ...others].map((s) => s.epoch()))
    expect(new Set(epochs).size).toBe(1)
  })
}
