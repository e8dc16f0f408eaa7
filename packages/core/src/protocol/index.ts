/**
 * @module @tessera/core/protocol
 * What a client needs to speak the wire of both revisions: the versions, the `_meta` keys of the
 * 2026-07-28 envelope, and its header rules (the `Mcp-Name` spelling and the `Mcp-Param-*`
 * mirrors of a tool's arguments), and the characters that break a line of text a peer chose. The
 * CLI's client is built on it.
 */
import { mirrorHeaders } from './modern/param-headers/check-param-headers.ts'
import { buildMirrorTable } from './modern/param-headers/mirror-table.ts'

export { LINE_BREAKING } from './line-breaking.ts'
export { decodeHeaderValue, encodeHeaderValue } from './modern/header-value.ts'
export { HANDSHAKE_VERSIONS, MetaKey, MODERN_VERSION, TASKS_EXTENSION } from './modern/vocabulary.ts'

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
