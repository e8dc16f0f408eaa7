/**
 * @module exit-codes
 * What `tessera` exits with, so scripts can tell the outcomes apart.
 */
export const ExitCode = {
  ok: 0,
  /**
   * The tool ran and reported an error (`isError`), a local operation (a key file) failed, or
   * something failed that none of the other codes names.
   */
  failed: 1,
  /** The server answered with a JSON-RPC error. */
  rpcError: 2,
  /**
   * No conversation: the server could not be reached, refused the caller (HTTP 401 or 403),
   * closed the stream (or exited) before answering, or a question went unanswered.
   */
  unavailable: 3,
  /** The command line itself is wrong. */
  usage: 64,
} as const
