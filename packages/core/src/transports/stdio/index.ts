/**
 * @module stdio
 * The stdio transport: newline-delimited JSON-RPC on stdin/stdout.
 */
export { type StdioOptions, serveStdio } from './serve-stdio.ts'
