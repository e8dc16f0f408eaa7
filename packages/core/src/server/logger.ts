/**
 * @module logger
 * The logging port: pino's call shape (`logger.warn(obj, msg)`), so an application passes its
 * pino instance straight in. The default is pino itself, writing JSON lines to stderr at `warn`
 * (or `TESSERA_LOG_LEVEL`) and above (never to stdout, which belongs to the stdio transport), with errors under `err`
 * serialised with their type, message and stack.
 */
import { pino } from 'pino'

export interface Logger {
  debug(obj: object, msg?: string): void
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])

/** Pino on stderr, at `TESSERA_LOG_LEVEL` when it names a pino level (`tessera dev` sets `info`), else `warn`. */
export function defaultLogger(): Logger {
  const wanted = process.env.TESSERA_LOG_LEVEL
  const level = wanted !== undefined && LEVELS.has(wanted) ? wanted : 'warn'
  return pino({ level, serializers: { err: pino.stdSerializers.err } }, pino.destination(2))
}
