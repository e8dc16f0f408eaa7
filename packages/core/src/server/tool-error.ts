/**
 * @module tool-error
 * The one error a tool throws on purpose: its message reaches the client as an `isError` result.
 * Any other thrown value becomes a generic message, so internals never leak.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError'
}
