/**
 * @module logger
 * The logging port: pino-compatible (`logger.warn(obj, msg)`), so an application passes its pino
 * instance straight in. The default writes JSON lines to stderr at `warn` and above, never to
 * stdout (stdout belongs to the stdio transport).
 */

export interface Logger {
  debug(obj: object, msg?: string): void
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

const LEVELS = { debug: 20, info: 30, warn: 40, error: 50 } as const
type Level = keyof typeof LEVELS

export function createStderrLogger(level: Level = 'warn'): Logger {
  const threshold = LEVELS[level]
  const write = (lvl: Level, obj: object, msg?: string) => {
    if (LEVELS[lvl] < threshold) return
    process.stderr.write(`${JSON.stringify({ level: lvl, time: Date.now(), msg, ...obj })}\n`)
  }
  return {
    debug: (obj, msg) => write('debug', obj, msg),
    info: (obj, msg) => write('info', obj, msg),
    warn: (obj, msg) => write('warn', obj, msg),
    error: (obj, msg) => write('error', obj, msg),
  }
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} }
