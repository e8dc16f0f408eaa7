/**
 * @module http-server.fixture
 * A real HTTP server on 127.0.0.1 for the verifier tests, recording every request so a test can
 * count fetches, and answering whatever the test's current handler says.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: string
}

export interface Reply {
  status?: number
  /** Sent as JSON unless a string. */
  body?: unknown
  /** Wait this long before answering. */
  delayMs?: number
}

export interface TestServer {
  url: URL
  requests: RecordedRequest[]
  /** Answers each request; replace it to change what the server says. */
  handle: (request: RecordedRequest) => Reply | Promise<Reply>
  close(): Promise<void>
}

export async function startServer(handle: TestServer['handle']): Promise<TestServer> {
  const requests: RecordedRequest[] = []
  const state: TestServer = {
    url: new URL('http://127.0.0.1/'),
    requests,
    handle,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      requests.push(request)
      const reply = await state.handle(request)
      if (reply.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, reply.delayMs))
      if (res.destroyed) return
      const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {})
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' }).end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  state.url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
  return state
}

/** A URL on 127.0.0.1 where nothing listens: connections are refused. */
export async function deadUrl(): Promise<URL> {
  const server = await startServer(() => ({}))
  const url = server.url
  await server.close()
  return url
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
