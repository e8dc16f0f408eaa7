/**
 * @module fetch-client
 * A 2026-07-28 client bound to a server's fetch face: no socket, no port. Unit tests of the
 * server and transport layers drive a real server through it.
 */
import type { McpServer } from '@tessera/core'
import { createFetchHandler, type HttpOptions } from '@tessera/core/http'
import { McpHttpClient } from './mcp-http.ts'

export const FETCH_URL = 'http://127.0.0.1/mcp'

/** The server's fetch face itself, for a test that writes its own requests (a 2025-11-25 session, say). */
export function fetchFace(app: McpServer, options?: HttpOptions): (request: Request) => Promise<Response> {
  return createFetchHandler(app, options)
}

export function fetchClient(app: McpServer, options?: HttpOptions): McpHttpClient {
  const handler = createFetchHandler(app, options)
  return new McpHttpClient(FETCH_URL, (url, init) => handler(new Request(url, init)))
}
