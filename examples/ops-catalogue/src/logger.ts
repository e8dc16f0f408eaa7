/**
 * @module logger
 * pino on stderr, always: stdout belongs to the stdio transport. Pretty when a person is watching
 * (stderr is a terminal), JSON lines when a machine is (pipes, files, log shippers). Tessera's own
 * options come first, so tokens, requestStates, answers and `Mcp-Param-*` values are redacted.
 */
import { loggerOptions } from '@tessera/core'
import pino from 'pino'
import pretty from 'pino-pretty'

export type AppLogger = pino.Logger

export function createLogger(level: string, bindings?: Record<string, unknown>): AppLogger {
  const options: pino.LoggerOptions = { ...loggerOptions(), level, base: { pid: process.pid, ...bindings } }
  if (process.stderr.isTTY) {
    // A synchronous stream, not a transport thread: a fatal start-up error must reach the screen before exit.
    return pino(
      options,
      pretty({
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
