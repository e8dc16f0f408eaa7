/**
 * @module @tessera/core/protocol
 * The wire of both revisions: the versions, the `_meta` keys of the 2026-07-28 envelope, the
 * shapes of results and of the input requests a server sends, the error table's numbers, and the
 * header rules (the `Mcp-Name` spelling and the `Mcp-Param-*`
 * mirrors of a tool's arguments), and the characters that break a line of text a peer chose. The
 * CLI's client is built on it.
 */
import { mirrorHeaders } from './modern/param-headers/check-param-headers.ts'
import { buildMirrorTable } from './modern/param-headers/mirror-table.ts'

export { SuccessStatus, type WireMapping, wireMappings } from '../errors.ts'
export type { JsonObject, JsonRpcErrorObject, JsonRpcId, JsonRpcResponseIn } from './jsonrpc/message.ts'
export { LINE_BREAKING } from './line-breaking.ts'
export type { ClientCapabilities, ServerCapabilities } from './modern/capabilities.ts'
export { type DecodedHeaderValue, decodeHeaderValue, encodeHeaderValue } from './modern/header-value.ts'
export type {
  CreateMessageParams,
  ElicitationContent,
  ElicitationRequest,
  ElicitFormParams,
  ElicitUrlParams,
  RequestedSchema,
  RootsRequest,
  SamplingMessage,
  SamplingRequest,
} from './modern/input-requests.ts'
export type { Implementation } from './modern/request-meta.ts'
export type {
  Annotations,
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  Icon,
  PromptMessage,
  ReadResourceResult,
  ResourceContents,
} from './modern/results.ts'
export {
  APPS_EXTENSION,
  HANDSHAKE_VERSIONS,
  INPUT_KEY_META,
  LOGGING_LEVELS,
  type LoggingLevel,
  MetaKey,
  MODERN_VERSION,
  SKILLS_EXTENSION,
  TASKS_EXTENSION,
  VIEW_MIME_TYPE,
} from './modern/vocabulary.ts'

/**
 * The `Mcp-Param-*` headers a 2026-07-28 `tools/call` of `tool` with `args` must carry, keyed by
 * lowercase header name. Throws a TypeError when the tool's schema places an `x-mcp-header`
 * annotation where no server may (such a tool cannot be called correctly).
 */
export function paramHeaders(
  tool: { name: string; inputSchema: Record<string, unknown> },
  args: unknown,
): Record<string, string> {
  return mirrorHeaders(buildMirrorTable(tool.name, tool.inputSchema), args)
}
