/**
 * @module serve-stdio
 * stdio: one JSON-RPC message per line on stdin and stdout, logs never on stdout. This module
 * only frames: it bounds and parses each line and writes each answer as one line; the server's
 * connection decides what every message means, in either era. On end of input the subscriptions
 * end, the requests in flight still answer, and then the returned promise resolves.
 */
import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import { TesseraError } from '../../errors.ts'
import { assertKnownOptions, type OptionNames } from '../../option-checks.ts'
import { parseMessage } from '../../protocol/jsonrpc/parse.ts'
import { encodeReply, failure } from '../../reply.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import { doorOf, type McpServer } from '../../server/door.ts'

/** What `serveStdio` is given: the streams, the longest line, and who the caller is. */
export interface StdioOptions {
  /** Where messages arrive, one per line (default `process.stdin`). */
  input?: Readable
  /** Where answers and notifications go, one per line (default `process.stdout`). */
  output?: Writable
  /** Longest accepted line in bytes (default 4 MiB); longer lines are answered -32600. */
  maxLineBytes?: number
  /**
   * Who the server serves. stdio carries no tokens: the process that starts the server knows its
   * user, so it says so here (a fixed principal, or one read from the environment). Bindings and
   * scope checks use it as they use a verified token's principal; without it the caller is
   * anonymous.
   */
  auth?: AuthInfo
}

const STDIO_OPTION_NAMES = {
  input: true,
  output: true,
  maxLineBytes: true,
  auth: true,
} as const satisfies OptionNames<StdioOptions>

/**
 * Serves `server` over stdio until the input ends; the promise resolves once the requests in
 * flight have answered. Nothing else may write to stdout: the default logger writes to stderr.
 */
export function serveStdio(server: McpServer, options?: StdioOptions): Promise<void> {
  const door = doorOf(server, 'serveStdio')
  assertKnownOptions(options, STDIO_OPTION_NAMES, 'serveStdio')
  const input = options?.input ?? process.stdin
  const output = options?.output ?? process.stdout
  const maxLine = options?.maxLineBytes ?? 4 * 1024 * 1024
  if (!Number.isSafeInteger(maxLine) || maxLine < 1)
    throw new RangeError('maxLineBytes must be a positive integer.')
  const write = (message: unknown) => {
    output.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`)
  }
  door.opened()
  const connection = door.connect(write, options?.auth)
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })
  lines.on('line', (line) => {
    if (line.trim() === '') return
    if (Buffer.byteLength(line) > maxLine) {
      const error = new TesseraError('TESSERA_INVALID_REQUEST', 'Invalid request: the line is too long.')
      return write(encodeReply(failure(undefined, error)))
    }
    const parsed = parseMessage(line)
    if (!parsed.ok) return write(encodeReply(failure(parsed.id, parsed.error)))
    connection.receive(parsed.value)
  })
  return new Promise((resolve) => {
    lines.once('close', () => {
      connection.close().then(resolve, resolve)
    })
  })
}
