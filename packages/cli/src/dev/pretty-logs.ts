/**
 * @module pretty-logs
 * The server's stderr for a person: each JSON log line rendered by pino-pretty, anything else
 * passed through as it came.
 */
import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import { prettyFactory } from 'pino-pretty'

export function prettyLogs(from: Readable, to: Writable, colorize: boolean): void {
  const pretty = prettyFactory({ colorize, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' })
  createInterface({ input: from }).on('line', (line) => {
    if (!line.startsWith('{')) return void to.write(`${line}\n`)
    try {
      to.write(pretty(JSON.parse(line)))
    } catch {
      to.write(`${line}\n`)
    }
  })
}
