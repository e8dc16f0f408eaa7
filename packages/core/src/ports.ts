/**
 * @module @tessera/core/ports
 * Everything a store or bus author needs, in one place: each port a server's instances share
 * (single-use records, handshake sessions, stream events, tasks, the event bus), the helpers every
 * implementation of a port must use so they all agree (claim arguments, fences, the event-id
 * rule, session changes, the bus relay), and the in-memory implementation of each. An application
 * needs none of this: it passes a store package's bundle as `stores`.
 */

export { UpgradeStatus } from './errors.ts'
export {
  assertKnownOptions,
  type KnownOptionsCheck,
  nonNegativeInteger,
  type OptionNames,
  positiveInteger,
} from './option-checks.ts'
export {
  assertStreamId,
  formatEventId,
  MAX_STREAM_ID_LENGTH,
  parseEventId,
} from './protocol/handshake/event-id.ts'
export {
  createSingleUseGuard,
  type GuardOutcome,
  LeaseLostError,
  type SingleUseEvent,
  type SingleUseEventType,
  type SingleUseGuard,
  type SingleUseGuardOptions,
} from './security/replay/guard.ts'
export { type MemoryReplayStoreOptions, memoryReplayStore } from './security/replay/memory-replay-store.ts'
export {
  assertClaimArguments,
  type ClaimConditions,
  type ClaimResult,
  claimDeadline,
  newEpoch,
  newFence,
  pastDeadline,
  type ReplayRecordView,
  type ReplayStore,
  SingleUseStoreError,
  toStoreError,
  withStoreTimeout,
  withTimeout,
} from './security/replay/replay-store.ts'
export {
  createFollowerWakeups,
  type EventStore,
  type FollowerWakeups,
  type MemoryEventStoreOptions,
  memoryEventStore,
  type StoredEvent,
} from './server/handshake/event-store.ts'
export {
  applySessionChange,
  MAX_SUBSCRIPTIONS,
  type MemorySessionStoreOptions,
  memorySessionStore,
  type SessionChange,
  type SessionRecord,
  type SessionStore,
} from './server/handshake/session-store.ts'
export type { RecordedAnswer } from './server/mrtr/round-state.ts'
export {
  type BusRelay,
  type BusRelayOptions,
  createBusRelay,
  isLocalEvent,
  memoryNotificationBus,
  type NotificationBus,
  type ServerEvent,
  type ServerEventListener,
} from './server/notification-bus.ts'
export {
  type MemoryRateLimitStoreOptions,
  memoryRateLimitStore,
} from './server/rate-limits/memory-rate-limit-store.ts'
export {
  assertBucket,
  type BucketState,
  type BucketTake,
  type RateLimitStore,
  type TokenBucket,
  takeToken,
} from './server/rate-limits/rate-limit-store.ts'
export { closeTogether, type Stores } from './server/stores.ts'
export type {
  OutstandingInput,
  TaskCall,
  TaskRecord,
  TaskStatus,
} from './server/tasks/task-record.ts'
export {
  assertReplacement,
  isExpired,
  type MemoryTaskStoreOptions,
  memoryTaskStore,
  type TaskCreation,
  type TaskLimits,
  type TaskStore,
} from './server/tasks/task-store.ts'
