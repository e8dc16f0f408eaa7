/**
 * @module failure
 * How a command fails: one line on stderr saying what happened and what to do, and the exit code
 * that names the outcome. The line is one line whatever a server or a child put in it (control
 * characters are escaped, so neither a newline nor a terminal escape gets through). `--verbose`
 * adds what the line leaves out: the stack, each cause, and the detail a failure carries (a
 * response body, a child's stderr, a JSON-RPC error's data).
 */
import { LINE_BREAKING } from '@tessera/core/protocol'
import { RpcError, TransportError } from '../client/json-rpc.ts'
import { AnswerAborted } from '../terminal/ask-in-terminal.ts'
import { ExitCode } from './exit-codes.ts'

/** The command line is wrong: exits 64. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/** A failure the command explains in its message, exiting with `exitCode`. */
export class CommandError extends Error {
  override readonly name = 'CommandError'
  constructor(
    message: string,
    readonly exitCode: number,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** How much of a JSON-RPC error's data the line shows. */
const DATA_LIMIT = 300
/** Causes followed with `--verbose`, against a cycle. */
const MAX_CAUSES = 8

/** Writes why a command failed to stderr and returns its exit code. */
export function failure(error: unknown, verbose = false): number {
  const { line, code } = explain(error)
  process.stderr.write(`${oneLine(line)}\n`)
  if (verbose) process.stderr.write(`${printable(particulars(error))}\n`)
  return code
}

function explain(error: unknown): { line: string; code: number } {
  if (error instanceof UsageError) return { line: `tessera: ${error.message}`, code: ExitCode.usage }
  if (error instanceof RpcError)
    return { line: `error ${error.code}: ${error.message}${dataOf(error.data)}`, code: ExitCode.rpcError }
  if (error instanceof TransportError || error instanceof AnswerAborted)
    return { line: `tessera: ${error.message}`, code: ExitCode.unavailable }
  if (error instanceof CommandError) return { line: `tessera: ${error.message}`, code: error.exitCode }
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return {
    line: `tessera: unexpected ${what}; run again with --verbose to see where, and report it.`,
    code: ExitCode.failed,
  }
}

function dataOf(data: unknown): string {
  if (data === undefined) return ''
  const text = JSON.stringify(data) ?? String(data)
  return ` ${text.length > DATA_LIMIT ? `${text.slice(0, DATA_LIMIT)}… (--verbose shows all)` : text}`
}

/** The stack of `error`, then each cause's, then the detail of each. */
function particulars(error: unknown): string {
  const parts: string[] = []
  let current = error
  for (let depth = 0; depth < MAX_CAUSES && current !== undefined; depth++) {
    parts.push(`${depth === 0 ? '' : 'cause: '}${stackOf(current)}`)
    if (current instanceof TransportError && current.detail !== undefined) parts.push(current.detail)
    if (current instanceof RpcError && current.data !== undefined)
      parts.push(`data: ${JSON.stringify(current.data, null, 2)}`)
    current = current instanceof Error ? current.cause : undefined
  }
  return parts.join('\n')
}

function stackOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  return error.stack ?? `${error.name}: ${error.message}`
}

/** Every line break a space and every other control character escaped: one line. */
export function oneLine(text: string): string {
  return escapeControls(text.replace(/\r\n|[\r\n]/g, ' '), false)
}

/** Line breaks kept, every other control character escaped. */
function printable(text: string): string {
  return escapeControls(text.replace(/\r\n/g, '\n'), true)
}

function escapeControls(text: string, keepNewlines: boolean): string {
  let out = ''
  for (const char of text) {
    const escaped = LINE_BREAKING.test(char) && !(keepNewlines && char === '\n')
    out += escaped ? `\\u${char.codePointAt(0)!.toString(16).padStart(4, '0')}` : char
  }
  return out
}
