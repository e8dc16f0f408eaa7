/**
 * @module node
 * The node:http face: the fast path. No Web `Request`/`Response` conversion, no stream objects
 * unless a reply streams, body read straight from the socket with a byte limit.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { SuccessStatus } from '../../errors.ts'
import { isLoopbackAddress } from '../../security/http/host-origin.ts'
import { doorOf, type McpServer, type ServerDoor } from '../../server/door.ts'
import { handleHttpRequest } from './handle-request.ts'
import type { HttpInput } from './http-input.ts'
import { NodeHeaderView } from './node-headers.ts'
import { type HttpOptions, type ResolvedHttpOptions, resolveHttpOptions } from './options.ts'
import { type ReplyWriter, type SseWriter, writeFault } from './reply-writer.ts'

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void

export interface NodeListenerOptions extends HttpOptions {
  /** Whether the server is bound to a loopback address (turns on local Host/Origin defaults). */
  local?: boolean
}

/** A `(req, res)` listener for an existing node:http server (or Express, or Fastify's raw routes). */
export function createNodeListener(server: McpServer, options?: NodeListenerOptions): NodeListener {
  const door = doorOf(server, 'createNodeListener')
  const resolved = resolveHttpOptions(options, options?.local ?? true)
  door.opened()
  return (req, res) => {
    const writer = new NodeReplyWriter(res)
    const path = pathOf(req.url)
    if (path !== resolved.path) return writeFault(writer, 'TESSERA_NOT_FOUND', 'Not found.')
    const input: HttpInput = {
      method: req.method ?? 'GET',
      headers: new NodeHeaderView(req),
      body: () => readBody(req, resolved),
    }
    handleHttpRequest(door, resolved, input, writer).catch((error: unknown) => {
      door.logger.error({ event: 'http_failed', err: error }, 'HTTP handling failed')
      if (!writer.closed && !res.headersSent)
        writeFault(writer, 'TESSERA_TRANSPORT_FAILED', 'Internal error.')
      else res.destroy()
    })
  }
}

export interface ListenOptions extends HttpOptions {
  host?: string
  port?: number
  /** How long `close()` lets requests in flight finish before cutting them (default 5 s). */
  shutdownGraceMs?: number
}

export interface RunningServer {
  readonly url: string
  readonly port: number
  readonly httpServer: Server
  close(): Promise<void>
}

/** Serves `server` on `host:port` (default 127.0.0.1:3000, path /mcp). */
export async function listen(server: McpServer, options?: ListenOptions): Promise<RunningServer> {
  const host = options?.host ?? '127.0.0.1'
  const listener = createNodeListener(server, { ...options, local: isLoopbackAddress(host) })
  const maxHeaderSize = options?.maxHeaderBytes ?? 16 * 1024
  const httpServer = createHttpServer({ maxHeaderSize, keepAliveTimeout: 5_000 }, listener)
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject)
    httpServer.listen(options?.port ?? 3000, host, () => resolve())
  })
  const port = (httpServer.address() as AddressInfo).port
  const shownHost = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${shownHost}:${port}${options?.path ?? '/mcp'}`,
    port,
    httpServer,
    close: () => closeGracefully(doorOf(server, 'listen'), httpServer, options?.shutdownGraceMs ?? 5_000),
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
  let timer: NodeJS.Timeout | undefined
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs)
    timer.unref()
  })
  await Promise.race([drained, grace])
  clearTimeout(timer)
  httpServer.closeAllConnections()
  await drained
  await door.close()
}

function pathOf(url: string | undefined): string {
  if (url === undefined) return '/'
  const q = url.indexOf('?')
  return q === -1 ? url : url.slice(0, q)
}

function readBody(req: IncomingMessage, options: ResolvedHttpOptions): Promise<string | undefined> {
  const declared = Number(req.headers['content-length'])
  if (declared > options.maxBodyBytes) {
    req.resume()
    return Promise.resolve(undefined)
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let over = false
    req.on('data', (chunk: Buffer) => {
      if (over) return
      size += chunk.length
      if (size > options.maxBodyBytes) {
        over = true
        chunks.length = 0
        return
      }
      chunks.push(chunk)
    })
    req.once('end', () => {
      if (over) resolve(undefined)
      else resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'))
    })
    req.once('error', reject)
  })
}

class NodeReplyWriter implements ReplyWriter {
  private ended = false

  constructor(private readonly res: ServerResponse) {}

  get closed(): boolean {
    return this.ended || this.res.destroyed || this.res.writableEnded
  }

  /** A callback registered once the connection already closed still runs (on the next microtask). */
  onClose(callback: () => void): void {
    if (this.res.closed) queueMicrotask(callback)
    else this.res.once('close', callback)
  }

  json(status: number, body: string, headers?: Record<string, string>): void {
    this.ended = true
    const h: Record<string, string | number> = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    }
    if (headers) Object.assign(h, headers)
    this.res.writeHead(status, h)
    this.res.end(body)
  }

  empty(status: number, headers?: Record<string, string>): void {
    this.ended = true
    this.res.writeHead(status, headers)
    this.res.end()
  }

  sse(headers?: Record<string, string>): SseWriter {
    this.res.writeHead(SuccessStatus.ok, headers)
    this.res.flushHeaders()
    const res = this.res
    return {
      write: (frame) => {
        res.write(frame)
      },
      end: () => {
        this.ended = true
        res.end()
      },
    }
  }
}
