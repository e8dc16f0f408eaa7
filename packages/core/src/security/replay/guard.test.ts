/**
 * @module guard.test
 * The guard against the memory store and against stores that fail on purpose: the
 * properties here are the ones a happy-path suite hides (a dead store, a lost lease,
 * a duplicate that arrives while the work is still running).
 */
import { spawn } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it, vi } from 'vitest'
import type { SingleUseEvent } from './guard.ts'
import { createSingleUseGuard, LeaseLostError } from './guard.ts'
import { memoryReplayStore } from './memory-replay-store.ts'
import type { ReplayStore } from './replay-store.ts'
import { SingleUseStoreError } from './replay-store.ts'

const TTL = 60_000

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

function withOverrides(overrides: Partial<ReplayStore>): ReplayStore {
  return { ...memoryReplayStore(), ...overrides }
}

const connectionRefused = (): Promise<never> =>
  Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'))

describe('createSingleUseGuard', () => {
  it('runsTheWorkOnceAndTellsADuplicateTheRecordedOutcome', async () => {
    const store = memoryReplayStore()
    const guard = createSingleUseGuard({ store })
    const work = vi.fn(async () => '2026.10.1')
    const describeIt = (v: string) => `rolled back to ${v}`
    const first = await guard.run('nonce-1', 'rollback checkout', TTL, work, describeIt)
    expect(first).toEqual({ status: 'executed', value: '2026.10.1', outcome: 'rolled back to 2026.10.1' })
    const again = await guard.run('nonce-1', 'rollback checkout', TTL, work, describeIt)
    expect(again).toEqual({
      status: 'duplicate',
      what: 'rollback checkout',
      outcome: 'rolled back to 2026.10.1',
    })
    expect(work).toHaveBeenCalledTimes(1)
    expect(await store.inspect('nonce-1')).toEqual({
      status: 'done',
      what: 'rollback checkout',
      outcome: 'rolled back to 2026.10.1',
    })
  })

  it('answersADuplicateDuringTheWorkImmediatelyWithInProgress', async () => {
    const events: SingleUseEvent[] = []
    const guard = createSingleUseGuard({ store: memoryReplayStore(), onEvent: (e) => events.push(e) })
    const gate = deferred()
    const started = deferred()
    const first = guard.run(
      'k',
      'rollback',
      TTL,
      async () => {
        started.resolve()
        await gate.promise
        return 1
      },
      () => 'one',
    )
    await started.promise
    const t0 = performance.now()
    const second = await guard.run('k', 'rollback', TTL, async () => 2, String)
    expect(performance.now() - t0).toBeLessThan(50)
    expect(second).toEqual({ status: 'in_progress', what: 'rollback' })
    gate.resolve()
    expect(await first).toMatchObject({ status: 'executed', value: 1 })
    expect(events).toEqual([{ type: 'in_progress', key: 'k', detail: 'rollback' }])
  })

  it('holdsTheNonceForTheWholeOperationPastSeveralLeaseLengths', async () => {
    const store = memoryReplayStore()
    const guard = createSingleUseGuard({ store, leaseMs: 150, renewEveryMs: 40 })
    const seen: string[] = []
    await guard.run(
      'k',
      'long rollback',
      TTL,
      async () => {
        for (let i = 0; i < 4; i++) {
          seen.push((await store.claim('k', 'intruder', 150, TTL)).kind)
          await sleep(100)
        }
      },
      () => 'done',
    )
    expect(seen).toEqual(['in_progress', 'in_progress', 'in_progress', 'in_progress'])
  })

  it('releasesTheKeyWhenTheWorkThrowsSoAnHonestRetryRuns', async () => {
    const store = memoryReplayStore()
    const guard = createSingleUseGuard({ store })
    const failure = new Error('deploy API timed out')
    await expect(guard.run('k', 'rollback', TTL, () => Promise.reject(failure), String)).rejects.toBe(failure)
    expect(await store.inspect('k')).toBeUndefined()
    const retry = await guard.run('k', 'rollback', TTL, async () => 'ok', String)
    expect(retry).toMatchObject({ status: 'executed', value: 'ok' })
  })

  it('doesNotRunTheWorkWhenTheStoreIsUnreachable', async () => {
    const events: SingleUseEvent[] = []
    const store = withOverrides({ claim: connectionRefused })
    const guard = createSingleUseGuard({ store, onEvent: (e) => events.push(e) })
    const work = vi.fn(async () => 'ran')
    const error = await guard.run('k', 'rollback', TTL, work, String).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SingleUseStoreError)
    expect(error).toMatchObject({ code: 'TESSERA_STORE_UNAVAILABLE' })
    expect(work).not.toHaveBeenCalled()
    expect(events.map((e) => e.type)).toEqual(['store_error'])
  })

  it('doesNotRunTheWorkWhenTheStoreDoesNotAnswerInTime', async () => {
    const store = withOverrides({ claim: () => new Promise(() => {}) })
    const guard = createSingleUseGuard({ store, storeTimeoutMs: 50 })
    const work = vi.fn(async () => 'ran')
    await expect(guard.run('k', 'rollback', TTL, work, String)).rejects.toMatchObject({
      code: 'TESSERA_STORE_UNAVAILABLE',
    })
    expect(work).not.toHaveBeenCalled()
  })

  it('treatsAStoreThatThrowsSynchronouslyAsUnavailable', async () => {
    const store = withOverrides({
      claim: () => {
        throw new Error('client is closed')
      },
    })
    const work = vi.fn(async () => 'ran')
    await expect(createSingleUseGuard({ store }).run('k', 'x', TTL, work, String)).rejects.toBeInstanceOf(
      SingleUseStoreError,
    )
    expect(work).not.toHaveBeenCalled()
  })

  it('reportsLoudlyAnOutcomeTheStoreWouldNotTake', async () => {
    const events: SingleUseEvent[] = []
    const base = memoryReplayStore()
    const store: ReplayStore = { ...base, complete: connectionRefused }
    const guard = createSingleUseGuard({ store, onEvent: (e) => events.push(e) })
    // The work did run, so this caller hears so; the unrecorded outcome is an event, not silence.
    expect(await guard.run('k', 'x', TTL, async () => 1, String)).toMatchObject({ status: 'executed' })
    expect(events).toEqual([
      { type: 'store_error', key: 'k', detail: expect.stringContaining('outcome not recorded') },
    ])
    expect(await base.inspect('k')).toEqual({ status: 'in_progress', what: 'x' })
  })

  it('doesNotReportSuccessWhenARenewalIsRefusedMidWork', async () => {
    const events: SingleUseEvent[] = []
    const store = withOverrides({ renew: async () => false })
    const guard = createSingleUseGuard({
      store,
      leaseMs: 150,
      renewEveryMs: 30,
      onEvent: (e) => events.push(e),
    })
    let aborted = false
    const error = await guard
      .run(
        'k',
        'rollback',
        TTL,
        async (signal) => {
          await sleep(120)
          aborted = signal.aborted
          return 'finished anyway'
        },
        (v) => v,
      )
      .catch((e: unknown) => e)
    expect(aborted).toBe(true)
    expect(error).toBeInstanceOf(LeaseLostError)
    expect(error).toMatchObject({ code: 'TESSERA_LEASE_LOST', completed: true, value: 'finished anyway' })
    expect(events.filter((e) => e.type === 'lease_lost')).toHaveLength(1)
  })

  it('throwsLeaseLostForAWorkThatDeclaresNoSignalThoughItsSignalNeverAborts', async () => {
    const store = withOverrides({ renew: async () => false })
    const guard = createSingleUseGuard({ store, leaseMs: 150, renewEveryMs: 30 })
    let handed: AbortSignal | undefined
    // A rest parameter is not counted in `length`: this work is handed the signal that never aborts.
    const work = async (...args: AbortSignal[]) => {
      await sleep(120)
      handed = args[0]
      return 'finished anyway'
    }
    expect(work.length).toBe(0)
    const error = await guard.run('k', 'rollback', TTL, work, (v) => v).catch((e: unknown) => e)
    expect(handed?.aborted).toBe(false)
    expect(error).toBeInstanceOf(LeaseLostError)
    expect(error).toMatchObject({ code: 'TESSERA_LEASE_LOST', completed: true, value: 'finished anyway' })
  })

  it('givesTheLeaseUpWhenNoRenewalSucceedsBeforeItRunsOut', async () => {
    const events: SingleUseEvent[] = []
    const store = withOverrides({ renew: connectionRefused })
    const guard = createSingleUseGuard({
      store,
      leaseMs: 150,
      renewEveryMs: 40,
      onEvent: (e) => events.push(e),
    })
    const error = await guard
      .run(
        'k',
        'rollback',
        TTL,
        async (signal) => {
          await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
          signal.throwIfAborted()
        },
        () => 'never',
      )
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LeaseLostError)
    expect(events.some((e) => e.type === 'store_error')).toBe(true)
    expect(events.filter((e) => e.type === 'lease_lost')).toHaveLength(1)
  })

  it('letsAStaleExecutorNeitherOverwriteNorReportSuccess', async () => {
    const base = memoryReplayStore()
    // Renewals that silently do nothing model a paused process: the lease runs out in the store.
    const pausedRenewals: ReplayStore = { ...base, renew: async () => true }
    const guard = createSingleUseGuard({ store: pausedRenewals, leaseMs: 100, renewEveryMs: 30 })
    const slow = guard.run(
      'k',
      'rollback',
      TTL,
      async () => {
        await sleep(150)
        return 'slow'
      },
      (v) => v,
    )
    await sleep(120)
    const second = createSingleUseGuard({ store: base })
    expect(
      await second.run(
        'k',
        'rollback',
        TTL,
        async () => 'fast',
        (v) => v,
      ),
    ).toEqual({
      status: 'executed',
      value: 'fast',
      outcome: 'fast',
      previous: 'abandoned',
    })
    await expect(slow).rejects.toMatchObject({ name: 'LeaseLostError', completed: true, recorded: false })
    expect(await base.inspect('k')).toEqual({ status: 'done', what: 'rollback', outcome: 'fast' })
  })

  it('retriesACompleteThatFailedTransiently', async () => {
    const base = memoryReplayStore()
    let failures = 1
    const store: ReplayStore = {
      ...base,
      complete: (key, fence, outcome) =>
        failures-- > 0 ? connectionRefused() : base.complete(key, fence, outcome),
    }
    const guard = createSingleUseGuard({ store })
    expect(await guard.run('k', 'x', TTL, async () => 1, String)).toMatchObject({ status: 'executed' })
    expect(await base.inspect('k')).toEqual({ status: 'done', what: 'x', outcome: '1' })
  })

  it('recordsSomethingEvenWhenDescribeThrowsSoTheWorkIsNotRunAgain', async () => {
    const store = memoryReplayStore()
    const guard = createSingleUseGuard({ store })
    const bad = new Error('describe failed')
    await expect(
      guard.run(
        'k',
        'x',
        TTL,
        async () => 1,
        () => {
          throw bad
        },
      ),
    ).rejects.toBe(bad)
    expect(await guard.run('k', 'x', TTL, async () => 2, String)).toMatchObject({ status: 'duplicate' })
  })

  it('survivesAListenerThatThrows', async () => {
    const guard = createSingleUseGuard({
      store: memoryReplayStore(),
      onEvent: () => {
        throw new Error('listener bug')
      },
    })
    await guard.run('k', 'x', TTL, async () => 1, String)
    expect(await guard.run('k', 'x', TTL, async () => 2, String)).toMatchObject({ status: 'duplicate' })
  })

  it('rejectsBadOptionsAndArgumentsBeforeTouchingTheStore', async () => {
    expect(() =>
      createSingleUseGuard({ store: memoryReplayStore(), leaseMs: 100, renewEveryMs: 100 }),
    ).toThrow(RangeError)
    const guard = createSingleUseGuard({ store: withOverrides({ claim: connectionRefused }) })
    await expect(guard.run('', 'x', TTL, async () => 1, String)).rejects.toThrow(TypeError)
    await expect(guard.run('k', 'x', 0, async () => 1, String)).rejects.toThrow(RangeError)
  })

  it('doesNotKeepTheProcessAliveWhileWorkIsPending', async () => {
    const guardModule = new URL('./guard.ts', import.meta.url).href
    const storeModule = new URL('./memory-replay-store.ts', import.meta.url).href
    const script = `
      const { createSingleUseGuard } = await import(${JSON.stringify(guardModule)})
      const { memoryReplayStore } = await import(${JSON.stringify(storeModule)})
      const guard = createSingleUseGuard({ store: memoryReplayStore(), leaseMs: 60000 })
      guard.run('k', 'x', 60000, () => new Promise(() => {}), String)
      console.log('started')
    `
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    const code = await Promise.race([exited, sleep(5_000).then(() => 'still running' as const)])
    if (code === 'still running') child.kill('SIGKILL')
    expect(output.trim()).toBe('started')
    expect(code).toBe(0)
  }, 10_000)
})
