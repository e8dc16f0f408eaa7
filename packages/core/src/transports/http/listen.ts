/**
 * @module listen
 * A node:http server for one `McpServer`, with graceful shutdown.
 */
import { channel } from 'node:diagnostics_channel'
import { createServer as createHttpServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { assertKnownOptions, type OptionNames, positiveInteger } from '../../option-checks.ts'
import { isLoopbackAddress } from '../../security/http/host-origin.ts'
import { doorOf, type McpServer, type ServerDoor } from '../../server/door.ts'
import { devConsoleFor } from './dev-console-hook.ts'
import { createNodeListener } from './node-listener.ts'
import { HTTP_OPTION_NAMES, type HttpOptions } from './options.ts'

const IDLE_SWEEP_MS = 50

/**
 * Every server that starts listening is announced here (`{ url }`), for tools that run a server
 * file and want its address (`tessera dev`). Publishing costs nothing without a subscriber.
 */
export const LISTENING_CHANNEL = 'tessera:listening'
const listening = channel(LISTENING_CHANNEL)

/**
 * What `listen` is given: the HTTP options, where to bind, and the limits and the shutdown of the
 * node:http server it makes.
 */
export interface ListenOptions extends HttpOptions {
  /** The address to bind (default `127.0.0.1`); a loopback address turns on the local Host/Origin defaults. */
  host?: string
  /** The port (default 3000; 0 takes a free one, which `RunningServer.port` tells). */
  port?: number
  /** How long `close()` lets requests in flight finish before cutting them (default 5 s). */
  shutdownGraceMs?: number
  /**
   * How long a client may take to send a request's headers (default 10 s); longer → 408 and the
   * connection closed, checked every second, so a client dribbling a byte a second cannot hold
   * a socket for minutes.
   */
  headersTimeoutMs?: number
  /** Connections open at once (default 16 384, enough for many idle listen streams); beyond it new ones are closed at once. */
  maxConnections?: number
  /**
   * Serve the development console at `/_tessera/` (from `@tessera/cli`, a development dependency):
   * live requests, multi round-trip rounds, single-use records. Loopback hosts only; refused with
   * `NODE_ENV=production`. `tessera dev` turns it on without this option; `false` keeps it off.
   */
  devConsole?: boolean
}

/** The names of `ListenOptions`, shared with `serveCluster`. */
export const LISTEN_OPTION_NAMES = {
  ...HTTP_OPTION_NAMES,
  host: true,
  port: true,
  shutdownGraceMs: true,
  headersTimeoutMs: true,
  maxConnections: true,
  devConsole: true,
} as const satisfies OptionNames<ListenOptions>

/** How often node:http checks the header and request deadlines (its default is 30 s). */
const DEADLINE_CHECK_MS = 1_000

/** What `listen` resolves with: where the server listens, its node:http server, and how to stop it. */
export interface RunningServer {
  /** The MCP endpoint's URL (`http://127.0.0.1:3000/mcp`). */
  readonly url: string
  /** The port bound. */
  readonly port: number
  /** The node:http server, for what `listen` does not cover. */
  readonly httpServer: Server
  /**
   * Shuts down gracefully: new requests are answered 503, listen streams end, requests in flight
   * get `shutdownGraceMs` to finish, then the server closes, and its stores with it.
   */
  close(): Promise<void>
}

/** Serves `server` on `host:port` (default 127.0.0.1:3000, path /mcp). */
export async function listen(server: McpServer, options?: ListenOptions): Promise<RunningServer> {
  assertKnownOptions(options, LISTEN_OPTION_NAMES, 'listen')
  const host = options?.host ?? '127.0.0.1'
  const local = isLoopbackAddress(host)
  const {
    host: _host,
    port: _port,
    shutdownGraceMs: _grace,
    headersTimeoutMs: _headers,
    maxConnections: _connections,
    devConsole: wanted,
    ...http
  } = options ?? {}
  const devConsole = await devConsoleFor(wanted, local)
  // The listener gets the HTTP options only: it refuses the ones that are listen's own.
  const listener = createNodeListener(server, { ...http, local, devConsole })
  const maxHeaderSize = options?.maxHeaderBytes ?? 16 * 1024
  const headersTimeout = positiveInteger(options?.headersTimeoutMs ?? 10_000, 'headersTimeoutMs')
  const httpServer = createHttpServer(
    {
      maxHeaderSize,
      keepAliveTimeout: 5_000,
      headersTimeout,
      // The body has its own deadline (bodyTimeoutMs); this bounds the whole request behind both.
      requestTimeout: headersTimeout + (options?.bodyTimeoutMs ?? 10_000) + DEADLINE_CHECK_MS,
      connectionsCheckingInterval: DEADLINE_CHECK_MS,
    },
    listener,
  )
  httpServer.maxConnections = positiveInteger(options?.maxConnections ?? 16_384, 'maxConnections')
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject)
    httpServer.listen(options?.port ?? 3000, host, () => resolve())
  })
  const port = (httpServer.address() as AddressInfo).port
  const shownHost = host.includes(':') ? `[${host}]` : host
  const url = `http://${shownHost}:${port}${options?.path ?? '/mcp'}`
  if (listening.hasSubscribers) listening.publish({ url })
  return {
    url,
    port,
    httpServer,
    close: () => {
      listener.drain()
      // Its event streams are long requests too: ended first, so the drain does not wait on them.
      devConsole?.close()
      return closeGracefully(doorOf(server, 'listen'), httpServer, options?.shutdownGraceMs ?? 5_000)
    },
  }
}

/**
 * Stops accepting, ends listen and GET streams, lets requests in flight finish (a guarded action
 * must get to record its outcome), cuts what is left after the grace period, then closes stores.
 */
async function closeGracefully(door: ServerDoor, httpServer: Server, graceMs: number): Promise<void> {
  const drained = new Promise<void>((resolve) => httpServer.close(() => resolve()))
  door.endStreams()
  httpServer.closeIdleConnections()
  // A keep-alive connection whose last request finishes during the drain turns idle: close it then.
  const sweep = setInterval(() => httpServer.closeIdleConnections(), IDLE_SWEEP_MS)
  let timer: NodeJS.Timeout | undefined
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs)
    timer.unref()
  })
  await Promise.race([drained, grace])
  clearTimeout(timer)
  clearInterval(sweep)
  httpServer.closeAllConnections()
  await drained
  await door.close()
}
