/**
 * @module logger
 * The logging port: pino's call shape (`logger.warn(obj, msg)`), so an application passes its
 * pino instance straight in. The default is pino itself, writing JSON lines to stderr at `warn`
 * and above (never to stdout, which belongs to the stdio transport), with errors under `err`
 * serialised with their type, message and stack.
 */
import { pino } from 'pino'

export interface Logger {
  debug(obj: object, msg?: string): void
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

export function defaultLogger(): Logger {
  return pino({ level: 'warn', serializers: { err: pino.stdSerializers.err } }, pino.destination(2))
}
