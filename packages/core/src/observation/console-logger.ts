/**
 * @module console-logger
 * The default logger where there is no pino (Workers, browsers): one JSON line per entry through
 * the platform's console, at `warn` and above unless told otherwise, with errors under `err` as
 * their type, message and stack, and what `redaction.ts` names redacted, as the pino default
 * redacts it. The console method follows the level, so the platform's log levels follow too.
 */
import type { Logger } from './logger.ts'
import { redacted } from './redaction.ts'

/** The levels a console logger writes, from the most detailed. */
export type ConsoleLevel = 'debug' | 'info' | 'warn' | 'error'
const ORDER: Readonly<Record<ConsoleLevel, number>> = { debug: 20, info: 30, warn: 40, error: 50 }

/** A logger over `console` that writes `level` and above (default `warn`). */
export function consoleLogger(level: ConsoleLevel = 'warn'): Logger {
  const threshold = ORDER[level]
  if (threshold === undefined)
    throw new RangeError(`level must be debug, info, warn or error, not ${String(level)}`)
  const write = (at: ConsoleLevel) => (obj: object, msg?: string) => {
    if (ORDER[at] < threshold) return
    // biome-ignore lint/suspicious/noConsole: the platform's console is where this logger writes.
    console[at](lineOf(at, obj, msg))
  }
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }
}

function lineOf(level: ConsoleLevel, obj: object, msg: string | undefined): string {
  const fields: Record<string, unknown> = { level: ORDER[level], time: Date.now(), ...redacted({ ...obj }) }
  if (fields.err instanceof Error) fields.err = serialisedError(fields.err)
  if (msg !== undefined) fields.msg = msg
  try {
    return JSON.stringify(fields)
  } catch {
    // A field that cannot be written (a cycle, a BigInt) must not lose the line.
    return JSON.stringify({ level: fields.level, time: fields.time, msg, unserializable: true })
  }
}

function serialisedError(error: Error): Record<string, unknown> {
  return { type: error.name, message: error.message, stack: error.stack }
}
