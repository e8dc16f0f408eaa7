/**
 * @module @tessera/core
 * The public entry point: create a server, register tools, resources and prompts, ask the client
 * for input across rounds, and guard destructive answers. Transports live in `@tessera/core/http`
 * and `@tessera/core/stdio`.
 */

export { isTesseraError, TesseraError, type TesseraErrorCode, wireMappings } from './errors.ts'
export { type JsonErrorLocation, locateJsonError } from './protocol/jsonrpc/locate-json-error.ts'
export type { JsonObject, JsonRpcId } from './protocol/jsonrpc/message.ts'
export type { ClientCapabilities, ServerCapabilities } from './protocol/modern/capabilities.ts'
export type { HeaderView } from './protocol/modern/header-view.ts'
export { LOGGING_LEVELS, type LoggingLevel, MODERN_VERSION } from './protocol/modern/vocabulary.ts'
export {
  createSingleUseGuard,
  LeaseLostError,
  memoryReplayStore,
  type ReplayStore,
  type SingleUseGuard,
  SingleUseStoreError,
} from './security/replay/index.ts'
export type { AuthInfo, Binder, StateKey, StateMode } from './security/request-state/index.ts'
export { generateStateKey, originatingRequestBinder } from './security/request-state/index.ts'
export { type AnswerOf, type Era, RequestContext } from './server/context.ts'
export type { HandshakeOptions } from './server/create-server.ts'
export { createServer, McpServer, type ServerOptions } from './server/create-server.ts'
export type { Exchange } from './server/exchange.ts'
export {
  createFollowerWakeups,
  type EventStore,
  type FollowerWakeups,
  type MemoryEventStoreOptions,
  memoryEventStore,
  type StoredEvent,
  streamOf,
} from './server/legacy/event-store.ts'
export {
  applyChange,
  type LegacySession,
  MAX_SUBSCRIPTIONS,
  type MemorySessionStoreOptions,
  memorySessionStore,
  type SessionChange,
  type SessionStore,
} from './server/legacy/session-store.ts'
export { createStderrLogger, type Logger, silentLogger } from './server/logger.ts'
export type { ElicitationAnswer, RootsAnswer, SamplingAnswer } from './server/mrtr/answers.ts'
export {
  type ElicitationRequest,
  elicitForm,
  elicitUrl,
  type InputRequest,
  listRoots,
  type RootsRequest,
  type SamplingRequest,
  sampling,
} from './server/mrtr/input-requests.ts'
export { InputRequired } from './server/mrtr/input-required.ts'
export type { RequestStateOptions, StateMetrics } from './server/mrtr/state-service.ts'
export {
  createMemoryBus,
  isLocalEvent,
  type NotificationBus,
  type ServerEvent,
  type ServerEventListener,
} from './server/notification-bus.ts'
export { ToolError } from './server/tool-error.ts'
export type * from './server/types.ts'
