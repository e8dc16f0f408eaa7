/**
 * @module tool-error
 * The one error a tool throws on purpose: its message reaches the client as an `isError` result.
 * Any other thrown value becomes a generic message, so internals never leak.
 */
/**
 * The error a tool throws on purpose: its message reaches the client as the text of an `isError`
 * result, which the model reads. Anything else a tool throws becomes a generic message.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError'
}
