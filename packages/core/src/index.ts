/**
 * @module @tessera/core
 * The application API: create a server, register tools, resources and prompts, ask the client
 * for input across rounds, and say what the instances of a server share. Transports live in
 * `@tessera/core/http` and `@tessera/core/stdio`; the requestState keys and their binding in
 * `@tessera/core/request-state`; the wire's shapes and vocabulary in `@tessera/core/protocol`;
 * what store authors need in `@tessera/core/ports`.
 */
export { TesseraError, type TesseraErrorCode } from './errors.ts'
export { type ConsoleLevel, consoleLogger } from './observation/console-logger.ts'
export type { Logger } from './observation/logger.ts'
export { loggerOptions } from './observation/pino-logger.ts'
export type { InputRequest } from './protocol/modern/input-requests.ts'
export type { JsonSchema, SchemaInput } from './schema/validator.ts'
export type { AuthInfo } from './security/request-state/binding.ts'
export type { StateMode } from './security/request-state/codec.ts'
export type {
  AnswersOf,
  Era,
  HandledRequest,
  RequestContext,
  RequestingClient,
} from './server/context.ts'
export {
  createServer,
  type HandshakeOptions,
  type ServerOptions,
  type TaskOptions,
} from './server/create-server.ts'
export type { ArgumentLimits, CallLimits } from './server/limits/call-limits.ts'
export type { McpServer } from './server/mcp-server.ts'
export type { AnswerOf, ElicitationAnswer, RootsAnswer, SamplingAnswer } from './server/mrtr/answers.ts'
export { createMessage, elicitForm, elicitUrl, listRoots } from './server/mrtr/input-requests.ts'
export type { RequestStateOptions, StateMetrics } from './server/mrtr/state-service.ts'
export type { RateLimit, RateLimitOptions } from './server/rate-limits/rate-limits.ts'
export type { Stores } from './server/stores.ts'
export type { TaskHandle } from './server/tasks/task-handle.ts'
export { ToolError } from './server/tool-error.ts'
export type {
  Awaitable,
  CacheHint,
  CacheHints,
  CacheScope,
  Completer,
  CompletionContext,
  PromptArgument,
  PromptArguments,
  PromptArgumentsInput,
  PromptConfig,
  PromptHandler,
  ResourceConfig,
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
