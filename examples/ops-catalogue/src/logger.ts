/**
 * @module logger
 * pino on stderr, always: stdout belongs to the stdio transport. Pretty when a person is watching
 * (stderr is a terminal), JSON lines when a machine is (pipes, files, log shippers). Tessera's own
 * options come first, so tokens, requestStates, answers and `Mcp-Param-*` values are redacted.
 */
import { createRequire } from 'node:module'
import { loggerOptions } from '@tessera/core'
import pino from 'pino'
import type pretty from 'pino-pretty'

export type AppLogger = pino.Logger

export function createLogger(level: string, bindings?: Record<string, unknown>): AppLogger {
  const options: pino.LoggerOptions = { ...loggerOptions(), level, base: { pid: process.pid, ...bindings } }
  if (process.stderr.isTTY) {
    // A synchronous stream, not a transport thread: a fatal start-up error must reach the screen before exit.
    // pino-pretty is loaded only for a terminal: a process whose stderr is piped never needs it.
    const prettyStream = createRequire(import.meta.url)('pino-pretty') as typeof pretty
    return pino(
      options,
      prettyStream({
        destination: 2,
        colorize: true,
        sync: true,
        singleLine: true,
        ignore: 'hostname',
        translateTime: 'SYS:HH:MM:ss.l',
      }),
    )
  }
  return pino(options, pino.destination({ dest: 2, sync: true }))
}
