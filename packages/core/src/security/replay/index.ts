/**
 * @module replay
 * Single-use guard for destructive actions and the port its record stores implement.
 * The store contract suite lives in test/contracts/replay-store-contract.ts, not here: it
 * imports vitest, which production code must not load.
 */
export type {
  GuardOutcome,
  SingleUseEvent,
  SingleUseEventType,
  SingleUseGuard,
  SingleUseGuardOptions,
} from './guard.ts'
export { createSingleUseGuard, LeaseLostError } from './guard.ts'
export type { MemoryReplayStoreOptions } from './memory-store.ts'
export { memoryReplayStore } from './memory-store.ts'
export type { ClaimResult, ReplayRecordView, ReplayStore } from './store.ts'
export {
  assertClaimArguments,
  newFence,
  SingleUseStoreError,
  toStoreError,
  withStoreTimeout,
} from './store.ts'
