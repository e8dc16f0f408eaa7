/**
 * @module fetch-handler.fixture
 * A server of one tool behind `createFetchHandler`, and a POST of `tools/list` to it, for the
 * fetch face's tests.
 */
import { type capturingLogger, requestParts } from '../../../../../test/helpers/mcp-http.ts'
import { silentLogger } from '../../../../../test/helpers/silent-logger.ts'
import type { NotificationBus } from '../../ports.ts'
import { createServer } from '../../server/create-server.ts'
import type { McpServer } from '../../server/mcp-server.ts'
import { createFetchHandler, type FetchHandler } from './fetch.ts'
import type { HttpOptions } from './options.ts'

/** Where the requests go. */
export const URL_ = 'http://127.0.0.1/mcp'
/** A `tools/list` request's body and headers. */
export const LIST = requestParts('tools/list', {}, { id: 1 })

/** A server with one tool, `noop`, and no handshake era. */
export function app(
  options: { logger?: ReturnType<typeof capturingLogger>; bus?: NotificationBus } = {},
): McpServer {
  const server = createServer({
    name: 'fetch',
    version: '1.0.0',
    logger: options.logger ?? silentLogger,
    handshake: false,
    stores: options.bus ? { bus: options.bus } : undefined,
  })
  server.tool('noop', { description: 'Does nothing' }, () => 'ok')
  return server
}

/** The fetch handler of a new `app()`. */
export const handlerOf = (options?: HttpOptions) => createFetchHandler(app(), options)

/** Sends `tools/list` (or what `options` says) to `handler` as a POST `Request`. */
export function post(
  handler: FetchHandler,
  options: { url?: string; headers?: Record<string, string>; body?: BodyInit; signal?: AbortSignal } = {},
) {
  const init = {
    method: 'POST',
    headers: { ...LIST.headers, ...options.headers },
    body: options.body ?? LIST.body,
    signal: options.signal,
    duplex: 'half',
  } as RequestInit
  return handler(new Request(options.url ?? URL_, init))
}

/** A JSON-RPC error answer without an id. */
export const fault = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message } })

/** Bytes of a header block as the handler counts them. */
export function headerBytes(headers: Headers): number {
  let total = 0
  headers.forEach((value, name) => {
    total += name.length + value.length + 4
  })
  return total
}
