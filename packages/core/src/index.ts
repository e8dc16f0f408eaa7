/**
 * @module @tessera/core
 * The application API: create a server, register tools, resources and prompts, ask the client
 * for input across rounds, and configure the requestState keys and the stores. Transports live in
 * `@tessera/core/http` and `@tessera/core/stdio`; what store authors need, in `@tessera/core/ports`.
 */
export { TesseraError, type TesseraErrorCode, type WireMapping, wireMappings } from './errors.ts'
export type { JsonObject, JsonRpcId } from './protocol/jsonrpc/message.ts'
export type { ClientCapabilities, ServerCapabilities } from './protocol/modern/capabilities.ts'
export type { Implementation } from './protocol/modern/request-meta.ts'
export { LOGGING_LEVELS, type LoggingLevel, MODERN_VERSION } from './protocol/modern/vocabulary.ts'
export type { JsonSchema, SchemaInput } from './schema/validator.ts'
export {
  type AuthInfo,
  type Binder,
  type BindingInput,
  type BindingResult,
  createStateKeyFile,
  generateStateKey,
  type OriginatingRequestBinderOptions,
  originatingRequestBinder,
  readStateKeyFile,
  retireStateKey,
  rotateStateKeyFile,
  type StateKey,
  type StateKeyFile,
  type StateMode,
} from './security/request-state/index.ts'
export type { AnswersOf, Era, RequestContext } from './server/context.ts'
export {
  createServer,
  type HandshakeOptions,
  type McpServer,
  type ServerOptions,
  type TaskOptions,
} from './server/create-server.ts'
export { type Logger, loggerOptions } from './server/logger.ts'
export type { AnswerOf, ElicitationAnswer, RootsAnswer, SamplingAnswer } from './server/mrtr/answers.ts'
export {
  type CreateMessageParams,
  createMessage,
  type ElicitationContent,
  type ElicitationRequest,
  type ElicitFormParams,
  type ElicitUrlParams,
  elicitForm,
  elicitUrl,
  type InputRequest,
  listRoots,
  type RequestedSchema,
  type RootsRequest,
  type SamplingMessage,
  type SamplingRequest,
} from './server/mrtr/input-requests.ts'
export type { RequestStateOptions, StateMetrics } from './server/mrtr/state-service.ts'
export type { Stores } from './server/stores.ts'
export type { TaskHandle } from './server/tasks/task-handle.ts'
export { ToolError } from './server/tool-error.ts'
export type {
  Annotations,
  Awaitable,
  CacheHint,
  CacheHints,
  CacheScope,
  CallToolResult,
  Completer,
  CompletionContext,
  ContentBlock,
  GetPromptResult,
  Icon,
  PromptArgument,
  PromptArguments,
  PromptArgumentsInput,
  PromptConfig,
  PromptHandler,
  PromptMessage,
  ReadResourceResult,
  ResourceConfig,
  ResourceContents,
  ResourceHandler,
  TemplateConfig,
  TemplateHandler,
  ToolAnnotations,
  ToolArguments,
  ToolConfig,
  ToolHandler,
  ToolResult,
  ToolTaskOptions,
  ToolTraceOptions,
} from './server/types.ts'
