/**
 * @module dev-console-hook
 * Where the development console plugs into the node:http face. The console itself belongs to
 * `@tessera/cli`, a development dependency: `tessera dev` registers one in the server's process
 * (on a process-wide symbol, so the copy of core the application loaded sees it), and
 * `listen(app, { devConsole: true })` loads it. Never with `NODE_ENV=production`, and only on a
 * loopback address. Without a console the listener makes one comparison per request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

/** Serves the console's paths; `handle` returns false for a request that is not the console's. */
export interface DevConsoleHandler {
  /** `endpoint`: the path of the MCP endpoint beside it, which the console's page calls. */
  handle(req: IncomingMessage, res: ServerResponse, endpoint: string): boolean
  /** Stops listening to the server and ends every open page's stream; `listen`'s `close()` calls it first. */
  close(): void
}

const REGISTERED = Symbol.for('tessera.dev-console')

/** The console `tessera dev` registered in this process, if any. */
export function registeredDevConsole(): DevConsoleHandler | undefined {
  return (globalThis as Record<symbol, DevConsoleHandler | undefined>)[REGISTERED]
}

/** Registers the console every `listen` of this process serves (what `tessera dev` does). */
export function registerDevConsole(handler: DevConsoleHandler): void {
  ;(globalThis as Record<symbol, DevConsoleHandler | undefined>)[REGISTERED] = handler
}

/**
 * The console a `listen` serves: the registered one, or with `devConsole: true` one loaded from
 * `@tessera/cli`. Refused in production and off loopback, because the console shows what every
 * caller sends.
 */
export async function devConsoleFor(
  wanted: boolean | undefined,
  loopback: boolean,
): Promise<DevConsoleHandler | undefined> {
  const registered = registeredDevConsole()
  if (wanted === false || (wanted === undefined && registered === undefined)) return undefined
  // Asked for in code, a console that cannot be served is an error; registered by `tessera dev`,
  // it is simply not served there.
  if (process.env.NODE_ENV === 'production') {
    if (wanted) throw new Error('devConsole is never served with NODE_ENV=production.')
    return undefined
  }
  if (!loopback) {
    if (wanted) throw new Error('devConsole is served on a loopback host only (127.0.0.1, ::1 or localhost).')
    return undefined
  }
  if (registered !== undefined) return registered
  let loaded: { createDevConsole(): DevConsoleHandler }
  try {
    loaded = (await import('@tessera/cli/console' as string)) as typeof loaded
  } catch (error) {
    throw new Error('devConsole needs @tessera/cli: npm install --save-dev @tessera/cli', { cause: error })
  }
  return loaded.createDevConsole()
}
