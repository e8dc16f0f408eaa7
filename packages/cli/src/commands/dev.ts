/**
 * @module dev
 * `tessera dev <entry>`: runs a server file (TypeScript through tsx, or JavaScript) as a child
 * process, renders its output and JSON logs for a person, says where the development console of
 * each server it starts is, and restarts it when a source file of the project changes. Where the
 * server listens is the server's own line (it prints it under `npm start` too): saying it here as
 * well would show it twice. The child gets `TESSERA_LOG_LEVEL` (default `info`), with `--port`,
 * `PORT`, and the arguments given after `--` as its own.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { extname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { styleText } from 'node:util'
import { DEV_TAG } from '../dev/dev-messages.ts'
import { prettyLogs } from '../dev/pretty-logs.ts'
import { projectRoot, watchSources } from '../dev/watch-sources.ts'
import { ExitCode } from './exit-codes.ts'
import { UsageError } from './failure.ts'

export interface DevOptions {
  port?: string
  logLevel?: string
  /** false: no development console (`--no-console`). */
  console?: boolean
  /** The server file's own arguments (`tessera dev src/main.ts -- --workers 2`). */
  args?: readonly string[]
}

const STOP_GRACE_MS = 5_000
// This module's own extension: `.ts` when run from the sources, `.js` once built.
const PRELOAD = new URL(`../dev/report-listening${extname(fileURLToPath(import.meta.url))}`, import.meta.url)
  .href

export function dev(entry: string, options: DevOptions): Promise<number> {
  const file = resolve(entry)
  if (!existsSync(file))
    throw new UsageError(
      `${entry} does not exist: give the path of the server file, e.g. tessera dev src/server.ts.`,
    )
  if (options.port !== undefined && !/^\d{1,5}$/.test(options.port))
    throw new UsageError(`--port must be a port number, e.g. --port 3000 (got '${options.port}').`)
  const color = process.stderr.isTTY && process.env.NO_COLOR === undefined
  const say = (text: string, style: 'green' | 'yellow' | 'red' = 'green') =>
    process.stderr.write(`${color ? styleText(style, text) : text}\n`)
  const env = {
    ...process.env,
    TESSERA_LOG_LEVEL: options.logLevel ?? 'info',
    TESSERA_DEV_CONSOLE: options.console === false ? 'off' : 'on',
    ...(options.port === undefined ? {} : { PORT: options.port }),
  }
  let child: ChildProcess | undefined
  let stopping: Promise<void> | undefined

  const start = (): void => {
    const current = spawn(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), '--import', PRELOAD, file, ...(options.args ?? [])],
      {
        stdio: ['inherit', 'inherit', 'pipe', 'ipc'],
        env,
      },
    )
    child = current
    prettyLogs(current.stderr!, process.stderr, color)
    current.on('message', (message) => {
      const url = (message as Record<string, { url?: string } | undefined>)[DEV_TAG]?.url
      if (url === undefined) return
      const console = consoleUrl(url, options.console !== false)
      if (console !== undefined) say(`Dev console on ${console}`)
    })
    current.once('exit', (code, signal) => {
      if (child === current && stopping === undefined)
        say(
          `the server exited (${signal ?? `code ${code}`}); waiting for a change to start it again`,
          'yellow',
        )
    })
  }

  const stop = (target: ChildProcess | undefined): Promise<void> => {
    if (target === undefined || target.exitCode !== null || target.signalCode !== null)
      return Promise.resolve()
    return new Promise((done) => {
      const timer = setTimeout(() => target.kill('SIGKILL'), STOP_GRACE_MS)
      target.once('exit', () => {
        clearTimeout(timer)
        done()
      })
      target.kill('SIGTERM')
    })
  }

  say(`tessera dev: ${entry} (restarts when a file under ${projectRoot(file)} changes)`)
  start()
  let restarting = Promise.resolve()
  const unwatch = watchSources(projectRoot(file), (changed) => {
    restarting = restarting.then(async () => {
      if (stopping) return
      say(`${changed} changed: restarting`, 'yellow')
      const previous = child
      child = undefined
      await stop(previous)
      if (!stopping) start()
    })
  })

  return new Promise((finish) => {
    const quit = (): void => {
      stopping ??= (async () => {
        unwatch()
        await restarting
        await stop(child)
        finish(ExitCode.ok)
      })()
    }
    process.once('SIGINT', quit).once('SIGTERM', quit)
  })
}

/** Where the console of a server listening on `url` is, when one is served there (loopback only). */
function consoleUrl(url: string, wanted: boolean): string | undefined {
  if (!wanted) return undefined
  const { hostname, origin } = new URL(url)
  const loopback = hostname === 'localhost' || hostname === '[::1]' || hostname.startsWith('127.')
  return loopback ? `${origin}/_tessera/` : undefined
}
