/**
 * @module logger
 * The logging port: pino's call shape (`logger.warn(obj, msg)`), so an application passes its
 * pino instance straight in. The default is pino itself, writing JSON lines to stderr at `warn`
 * (or `TESSERA_LOG_LEVEL`) and above (never to stdout, which belongs to the stdio transport), with errors under `err`
 * serialised with their type, message and stack, and credentials redacted wherever a log line
 * carries them under their usual names, and so are the values of `Mcp-Param-*` headers.
 */
import { type DestinationStream, type LoggerOptions, pino } from 'pino'

/**
 * What a server logs through: pino's call shape, the fields of a line first and then an optional
 * message, so an application passes its pino instance, or any logger of that shape, as `logger`.
 */
export interface Logger {
  /** Detail for finding a fault; below the default level, so off unless asked for. */
  debug(obj: object, msg?: string): void
  /** What goes on, for a person watching the process (`tessera dev` logs at this level). */
  info(obj: object, msg?: string): void
  /** Something an operator should look into; the default logger's level. */
  warn(obj: object, msg?: string): void
  /** A failure: a request, a handler, a store or a transport failed. */
  error(obj: object, msg?: string): void
}

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])

/**
 * Where a log line may carry a credential, at its top level or one level down (`headers.…`,
 * `params.…`): tokens, DPoP proofs, requestStates and the answers sent with them.
 */
const SECRET_KEYS = [
  'authorization',
  'dpop',
  'token',
  'accessToken',
  'requestState',
  'inputResponses',
  'cookie',
]
export const REDACTED_PATHS: readonly string[] = SECRET_KEYS.flatMap((key) => [key, `*.${key}`])

const CENSOR = '[redacted]'
/** The headers that mirror tool arguments (`Mcp-Param-Name`): their values are argument values. */
const PARAM_HEADER = /^mcp-param-/i

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

/** `line` with every `Mcp-Param-*` value censored, at its top and one level down; copied only when one is. */
function withoutParamHeaders(line: Record<string, unknown>, depth = 0): Record<string, unknown> {
  let out = line
  for (const key of Object.keys(line)) {
    const value = line[key]
    let kept = value
    if (PARAM_HEADER.test(key)) kept = CENSOR
    else if (depth === 0 && isPlainObject(value)) kept = withoutParamHeaders(value, 1)
    if (kept === value) continue
    if (out === line) out = { ...line }
    out[key] = kept
  }
  return out
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * `base` with `bindings` on every line: pino's own child when `base` has one, else a wrapper,
 * so an application's own logger of pino's shape works too.
 */
export function scopedLogger(base: Logger, bindings: Record<string, unknown>): Logger {
  const child = (base as { child?: (bindings: object) => Logger }).child
  if (typeof child === 'function') return child.call(base, bindings)
  return {
    debug: (obj, msg) => base.debug({ ...bindings, ...obj }, msg),
    info: (obj, msg) => base.info({ ...bindings, ...obj }, msg),
    warn: (obj, msg) => base.warn({ ...bindings, ...obj }, msg),
    error: (obj, msg) => base.error({ ...bindings, ...obj }, msg),
  }
}
