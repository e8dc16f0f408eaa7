/**
 * @module http-shutdown.test
 * Graceful shutdown over real HTTP: once `close()` begins, a request that arrives on an open
 * connection is answered 503 with `Retry-After` and `Connection: close` (the client learns to go
 * elsewhere, instead of losing the request to a reset), while the request already in flight
 * finishes with its real answer. The second request is written on the first one's raw socket
 * after the drain began and while the first is still running.
 */
import { connect } from 'node:net'
import { createServer, elicitForm } from '@tessera/core'
import { listen } from '@tessera/core/http'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { errorOf, HandshakeClient } from '../helpers/handshake-client.ts'
import { mcpHeaders, withMeta } from '../helpers/mcp-http.ts'
import { silentLogger } from '../helpers/silent-logger.ts'

interface Answer {
  status: number
  headers: Record<string, string>
  body: string
}

function requestText(port: number, tool: string): string {
  const params = withMeta({ name: tool, arguments: {} })
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params })
  const headers = {
    ...mcpHeaders('tools/call', params),
    host: `127.0.0.1:${port}`,
    'content-length': String(Buffer.byteLength(body)),
  }
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`)
  return `POST /mcp HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body}`
}

/** The responses on one connection, read until the server closes it (each with a content-length). */
function answersOf(raw: string): Answer[] {
  const answers: Answer[] = []
  let rest = raw
  while (rest.length > 0) {
    const split = rest.indexOf('\r\n\r\n')
    if (split === -1) break
    const [statusLine, ...lines] = rest.slice(0, split).split('\r\n')
    const headers: Record<string, string> = {}
    for (const line of lines)
      headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim()
    const length = Number(headers['content-length'] ?? 0)
    const start = split + 4
    answers.push({
      status: Number(statusLine!.split(' ')[1]),
      headers,
      body: rest.slice(start, start + length),
    })
    rest = rest.slice(start + length)
  }
  return answers
}

describe('graceful shutdown over HTTP', () => {
  it('answersARequestArrivingDuringTheDrain503WithConnectionCloseAndLetsTheOneInFlightFinish', async () => {
    const app = createServer({ name: 'shutdown', version: '1', logger: silentLogger })
    app.tool(
      'slow',
      { description: 'slow' },
      () => new Promise((resolve) => setTimeout(() => resolve('finished'), 400)),
    )
    app.tool('quick', { description: 'quick' }, () => 'quick')
    const running = await listen(app, { port: 0, shutdownGraceMs: 3000 })
    const socket = connect(running.port, '127.0.0.1')
    let raw = ''
    let reset = false
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      raw += chunk
    })
    socket.on('error', (error: NodeJS.ErrnoException) => {
      reset = error.code === 'ECONNRESET'
    })
    const ended = new Promise((resolve) => socket.once('close', resolve))
    socket.write(requestText(running.port, 'slow'))
    await new Promise((resolve) => setTimeout(resolve, 100))
    const closing = running.close()
    // The connection is busy with the slow call, so the drain leaves it open: the next request on it arrives now.
    await new Promise((resolve) => setTimeout(resolve, 20))
    socket.write(requestText(running.port, 'quick'))
    await closing
    await ended
    const [first, second] = answersOf(raw)
    expect(reset).toBe(false)
    expect(first?.status).toBe(200)
    expect(first?.body).toContain('finished')
    expect(second?.status).toBe(503)
    expect(second?.headers['retry-after']).toBe('1')
    expect(second?.headers.connection).toBe('close')
    expect(JSON.parse(second!.body).error).toEqual({
      code: -32603,
      message: 'Service unavailable: the server is shutting down.',
    })
  })

  it('endsAHandshakeEraCallWaitingForItsClientWithAJsonRpcErrorInsteadOfAReset', async () => {
    const app = createServer({ name: 'shutdown', version: '1', logger: silentLogger })
    app.tool('asks', { description: 'asks' }, async (_a, ctx) => {
      await ctx.ask('ok', elicitForm({ message: 'Sure?', schema: z.object({ ok: z.boolean() }) }))
      return 'answered'
    })
    const running = await listen(app, { port: 0, shutdownGraceMs: 3000 })
    const client = await HandshakeClient.connect(running.url)
    let closing: Promise<void> | undefined
    const started = performance.now()
    const reply = await client.callTool(
      'asks',
      {},
      {
        onRequest: () => {
          // The question reached the client, which never answers: the server shuts down meanwhile.
          closing = running.close()
          return 'ignore'
        },
      },
    )
    await closing
    expect(errorOf(reply)).toEqual({
      code: -32603,
      message: 'The server is shutting down; nothing more will be asked.',
    })
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})
