/**
 * @module logger
 * The logging port: pino's call shape (`logger.warn(obj, msg)`), so an application passes its
 * pino instance straight in. The default on Node is pino itself (`pino-logger.ts`); elsewhere it
 * is a console logger of the same shape and the same redaction (`console-logger.ts`).
 */

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
