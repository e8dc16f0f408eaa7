/**
 * @module pino-logger
 * The default logger on Node: pino, writing JSON lines to stderr at `warn` (or
 * `TESSERA_LOG_LEVEL`) and above (never to stdout, which belongs to the stdio transport), with
 * errors under `err` serialised with their type, message and stack, and what `redaction.ts` names
 * redacted.
 */
import { type DestinationStream, type LoggerOptions, pino } from 'pino'
import type { Logger } from './logger.ts'
import { CENSOR, REDACTED_PATHS, withoutParamHeaders } from './redaction.ts'

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])

/**
 * The options the default logger is made with, for an application that makes its own pino
 * (`pino({ ...loggerOptions(), level }, destination)`): errors serialised under `err`, and
 * credentials, requestStates, answers and `Mcp-Param-*` header values redacted at the top of a
 * line and one level down.
 */
export function loggerOptions(): LoggerOptions {
  return {
    serializers: { err: pino.stdSerializers.err },
    redact: { paths: [...REDACTED_PATHS], censor: CENSOR },
    formatters: { log: withoutParamHeaders },
  }
}

/**
 * Pino on stderr, at `TESSERA_LOG_LEVEL` when it names a pino level (`tessera dev` sets `info`),
 * else at `otherwise` (`warn`, or `info` for a logger whose info lines are what a person running
 * the process wants to see, such as the cluster primary's).
 */
export function defaultLogger(
  destination: DestinationStream = pino.destination(2),
  otherwise: 'warn' | 'info' = 'warn',
): Logger {
  const wanted = process.env.TESSERA_LOG_LEVEL
  const level = wanted !== undefined && LEVELS.has(wanted) ? wanted : otherwise
  return pino({ ...loggerOptions(), level }, destination)
}
