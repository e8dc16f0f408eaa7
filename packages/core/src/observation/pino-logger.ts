/**
 * @module pino-logger
 * The default logger on Node: pino, writing JSON lines to stderr at `warn` (or
 * `TESSERA_LOG_LEVEL`) and above (never to stdout, which belongs to the stdio transport), with
 * errors under `err` serialised with their type, message and stack, and what `redaction.ts` names
 * redacted.
 */
import type { DestinationStream, LoggerOptions, Logger as PinoLogger, pino as pinoFunction } from 'pino'
import { pinoPackage } from '#on-demand'
import type { Logger } from './logger.ts'
import { CENSOR, REDACTED_PATHS, withoutParamHeaders } from './redaction.ts'

/** pino's levels by number: a line is written when its level's number is at least the logger's. */
const LEVELS: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
}

let loaded: typeof pinoFunction | undefined

/**
 * pino, loaded the first time a line is written or its options are asked for: loading it is
 * about a tenth of a server's start, and a server that logs nothing at its level never needs it.
 */
function pinoNow(): typeof pinoFunction {
  loaded ??= pinoPackage().pino
  return loaded
}

/**
 * The options the default logger is made with, for an application that makes its own pino
 * (`pino({ ...loggerOptions(), level }, destination)`): errors serialised under `err`, and
 * credentials, requestStates, answers and `Mcp-Param-*` header values redacted at the top of a
 * line and one level down.
 */
export function loggerOptions(): LoggerOptions {
  return {
    serializers: { err: pinoNow().stdSerializers.err },
    redact: { paths: [...REDACTED_PATHS], censor: CENSOR },
    formatters: { log: withoutParamHeaders },
  }
}

/**
 * Pino on stderr (or `destination`), at `TESSERA_LOG_LEVEL` when it names a pino level
 * (`tessera dev` sets `info`), else at `otherwise` (`warn`, or `info` for a logger whose info
 * lines are what a person running the process wants to see, such as the cluster primary's).
 * pino itself is made when the first line at that level is written.
 */
export function defaultLogger(destination?: DestinationStream, otherwise: 'warn' | 'info' = 'warn'): Logger {
  const wanted = process.env.TESSERA_LOG_LEVEL
  const level = wanted !== undefined && Object.hasOwn(LEVELS, wanted) ? wanted : otherwise
  let made: PinoLogger | undefined
  return deferred(LEVELS[level]!, () => {
    const pino = pinoNow()
    made ??= pino({ ...loggerOptions(), level }, destination ?? pino.destination(2))
    return made
  })
}

/** A logger that calls `make` only for a line at `threshold` or above, and children that do the same. */
function deferred(threshold: number, make: () => PinoLogger): Logger & { child(bindings: object): Logger } {
  return {
    debug: (obj, msg) => {
      if (threshold <= LEVELS.debug!) make().debug(obj, msg)
    },
    info: (obj, msg) => {
      if (threshold <= LEVELS.info!) make().info(obj, msg)
    },
    warn: (obj, msg) => {
      if (threshold <= LEVELS.warn!) make().warn(obj, msg)
    },
    error: (obj, msg) => {
      if (threshold <= LEVELS.error!) make().error(obj, msg)
    },
    child: (bindings) => {
      let child: PinoLogger | undefined
      return deferred(threshold, () => {
        child ??= make().child(bindings)
        return child
      })
    },
  }
}
