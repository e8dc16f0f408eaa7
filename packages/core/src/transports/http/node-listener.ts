/**
 * @module node-listener
 * The node:http face: the fast path. No Web `Request`/`Response` conversion, no stream objects
 * unless a reply streams, body read straight from the socket with a byte limit and a deadline.
 * The same listener serves a bare node:http server, Express (as middleware or a route, mounted
 * anywhere, behind a body parser or not) and Fastify (from a route that hijacks the reply).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { assertKnownOptions, type OptionNames } from '../../option-checks.ts'
import { doorOf, type McpServer } from '../../server/door.ts'
import { serveDocument } from './auth-http.ts'
import type { DevConsoleHandler } from './dev-console-hook.ts'
import { handleHttpRequest } from './handle-request.ts'
import { isProbe, serveProbe } from './health-http.ts'
import type { HttpInput } from './http-input.ts'
import { ClientGoneError, type NodeRequest, readNodeBody } from './node-body.ts'
import { nodeHeaderView } from './node-headers.ts'
import { NodeReplyWriter } from './node-reply-writer.ts'
import {
  HTTP_OPTION_NAMES,
  type HttpOptions,
  type ResolvedHttpOptions,
  resolveHttpOptions,
} from './options.ts'
import { writeFault } from './reply-writer.ts'

/**
 * Serves one request. Called with `next` (as Express middleware), a request for another path is
 * passed on to `next()`; without it, it is answered 404.
 */
export type NodeListener = ((
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => void) & {
  /**
   * Graceful shutdown, first step: from now on every request to the endpoint is answered 503
   * with `Retry-After` and `Connection: close`, so a client on a kept-alive connection learns to
   * go elsewhere instead of losing its request to a reset. Requests already in flight go on.
   */
  drain(): void
}

/** What a request refused while draining or overloaded is told: try again (elsewhere) in a second. */
const RETRY_AFTER_SECONDS = '1'

/**
 * What `createNodeListener` is given: the HTTP options, and what `listen` sets for the listener it
 * makes (a loopback binding, the development console).
 */
export interface NodeListenerOptions extends HttpOptions {
  /** Whether the server is bound to a loopback address (turns on local Host/Origin defaults). */
  local?: boolean
  /** The development console, served under `/_tessera/` before anything else (see `listen`). */
  devConsole?: DevConsoleHandler
}

const NODE_LISTENER_OPTION_NAMES = {
  ...HTTP_OPTION_NAMES,
  local: true,
  devConsole: true,
} as const satisfies OptionNames<NodeListenerOptions>

/** The request shape frameworks hand over: Express adds the mount point and the matched route. */
type FrameworkRequest = NodeRequest & { originalUrl?: unknown; route?: unknown }

/**
 * A `(req, res, next?)` listener for an existing node:http server, Express or Fastify.
 *
 * `path` is matched against the path the listener sees (Express strips a mount point: under
 * `app.use('/api', listener)` the endpoint is `/api/mcp`) and against the path the client sent
 * (`app.use('/mcp', listener)` serves `/mcp`); a request an Express route delivered
 * (`app.post('/any/path', listener)`) is served whatever its path, since the route matched it.
 */
export function createNodeListener(server: McpServer, options?: NodeListenerOptions): NodeListener {
  const door = doorOf(server, 'createNodeListener')
  assertKnownOptions(options, NODE_LISTENER_OPTION_NAMES, 'createNodeListener')
  const resolved = resolveHttpOptions(options, options?.local ?? true)
  door.opened()
  let draining = false
  let inFlight = 0
  const devConsole = options?.devConsole
  const listener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void => {
    if (devConsole?.handle(req, res, resolved.path)) return
    if (resolved.health) {
      const path = pathOf(sentTarget(req as FrameworkRequest))
      if (isProbe(resolved, path)) {
        const writer = new NodeReplyWriter(res, req)
        serveProbe(door, path, req.method ?? 'GET', writer).catch(() => {
          if (!writer.closed && !res.headersSent)
            writeFault(writer, 'TESSERA_TRANSPORT_FAILED', 'Internal error.')
        })
        return
      }
    }
    if (resolved.documents.size > 0 && serveDocumentOf(req as FrameworkRequest, resolved, res)) return
    if (!isEndpoint(req as FrameworkRequest, resolved.path)) {
      if (next) return next()
      return writeFault(new NodeReplyWriter(res, req), 'TESSERA_NOT_FOUND', 'Not found.')
    }
    const writer = new NodeReplyWriter(res, req, door.observer)
    if (draining) {
      return writeFault(writer, 'TESSERA_UNAVAILABLE', 'Service unavailable: the server is shutting down.', {
        headers: { 'retry-after': RETRY_AFTER_SECONDS, connection: 'close' },
      })
    }
    // Every POST takes a slot, whatever its headers say: only the handling, once it knows the
    // request became a listen stream, gives the slot back (GET streams never take one).
    let holding = req.method === 'POST'
    const release = (): void => {
      if (!holding) return
      holding = false
      inFlight--
    }
    if (holding) {
      if (inFlight >= resolved.maxConcurrentRequests) {
        return writeFault(writer, 'TESSERA_UNAVAILABLE', 'Service unavailable: too many requests at once.', {
          headers: { 'retry-after': RETRY_AFTER_SECONDS },
        })
      }
      inFlight++
      // `on`, not `once`: a response closes once, `release` runs once, and `once` wraps it anew.
      res.on('close', release)
    }
    const input: HttpInput = {
      method: req.method ?? 'GET',
      target: sentTarget(req as FrameworkRequest),
      headers: nodeHeaderView(req),
      body: () => readNodeBody(req, resolved),
      becameStream: release,
    }
    const peer = req.socket?.remoteAddress
    if (peer !== undefined) input.peer = peer
    const { observer } = door
    const handling = observer.wants('exchange')
      ? observer.exchange(input.method, pathOf(input.target), (watch) => {
          if (watch !== undefined) res.once('close', () => watch.ended(res.statusCode))
          return handleHttpRequest(door, resolved, input, writer)
        })
      : handleHttpRequest(door, resolved, input, writer)
    handling.catch((error: unknown) => {
      if (error instanceof ClientGoneError) door.logger.debug({ event: 'http_client_gone' }, 'client left')
      else door.logger.error({ event: 'http_failed', err: error }, 'HTTP handling failed')
      if (!writer.closed && !res.headersSent)
        writeFault(writer, 'TESSERA_TRANSPORT_FAILED', 'Internal error.')
      else res.destroy()
    })
  }
  return Object.assign(listener, {
    drain() {
      draining = true
    },
  })
}

/** The request target the client sent: Express strips a mount point from `req.url`, not from `originalUrl`. */
function sentTarget(req: FrameworkRequest): string {
  return typeof req.originalUrl === 'string' ? req.originalUrl : (req.url ?? '/')
}

/** The authenticator's documents sit at the root: found by the path the client sent. */
function serveDocumentOf(req: FrameworkRequest, options: ResolvedHttpOptions, res: ServerResponse): boolean {
  return serveDocument(options, pathOf(sentTarget(req)), req.method ?? 'GET', new NodeReplyWriter(res, req))
}

function isEndpoint(req: FrameworkRequest, path: string): boolean {
  if (pathOf(req.url) === path) return true
  if (typeof req.originalUrl === 'string' && pathOf(req.originalUrl) === path) return true
  return req.route !== undefined && req.route !== null
}

function pathOf(url: string | undefined): string {
  if (url === undefined) return '/'
  const q = url.indexOf('?')
  return q === -1 ? url : url.slice(0, q)
}
