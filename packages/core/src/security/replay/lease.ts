/**
 * @module lease
 * Keeps a lease alive while work runs: renews it on unref'd timers and declares it lost when a
 * renewal is refused or none succeeds before the lease runs out (another process may then hold
 * it). The single-use guard keeps its claim this way, and a task its execution.
 */
import { backgroundTimeout } from '../../timers.ts'

export interface LeaseKeeperOptions {
  leaseMs: number
  renewEveryMs: number
  /** When the claim left, the earliest the store can have started the lease. */
  sentAt: number
  /** Renews in the store: true while the fence holds, false once it is lost; a throw is retried. */
  renew(): Promise<boolean>
  /** A renewal failed with an error (the lease may still hold); for logs. */
  onRenewError?(error: unknown): void
  /** The lease was lost: why, in words for logs. Called once. */
  onLost(reason: string): void
}

export interface Lease {
  lostReason(): string | undefined
  /** Stops renewing and waits for a renewal in flight, so none can race the final write. */
  stop(): Promise<void>
}

export function keepLease(options: LeaseKeeperOptions): Lease {
  const { leaseMs, renewEveryMs } = options
  let lost: string | undefined
  let stopped = false
  let inflight: Promise<void> = Promise.resolve()
  let renewTimer: NodeJS.Timeout | undefined
  let deadline: NodeJS.Timeout | undefined

  const loseLease = (reason: string): void => {
    if (lost !== undefined || stopped) return
    lost = reason
    clearTimeout(renewTimer)
    clearTimeout(deadline)
    options.onLost(reason)
  }

  // Without a confirmed renewal by the end of the lease, another process may already hold it.
  const armDeadline = (from: number): void => {
    clearTimeout(deadline)
    const remaining = from + leaseMs - Date.now()
    deadline = backgroundTimeout(() => loseLease('no renewal succeeded before the lease ran out'), remaining)
  }

  const renew = async (): Promise<void> => {
    const renewSentAt = Date.now()
    try {
      const held = await options.renew()
      if (stopped || lost !== undefined) return
      if (held) armDeadline(renewSentAt)
      else loseLease('the fence no longer holds')
    } catch (error) {
      if (!stopped) options.onRenewError?.(error)
    }
  }

  const schedule = (): void => {
    renewTimer = backgroundTimeout(() => {
      inflight = renew().then(() => {
        if (!stopped && lost === undefined) schedule()
      })
    }, renewEveryMs)
  }

  armDeadline(options.sentAt)
  schedule()
  return {
    lostReason: () => lost,
    async stop() {
      stopped = true
      clearTimeout(renewTimer)
      clearTimeout(deadline)
      await inflight
    },
  }
}
