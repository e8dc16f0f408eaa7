/**
 * @module http-slow-clients.test
 * What a slow or greedy client can hold, over real HTTP on 127.0.0.1: headers that never finish
 * are cut with 408 within the header timeout (plus the one-second check), never after minutes;
 * connections beyond `maxConnections` are closed at once while the ones within it are served.
 */
import { connect, type Socket } from 'node:net'
import { createServer } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { afterEach, describe, expect, it } from 'vitest'
import { silentLogger } from '../helpers/silent-logger.ts'

const servers: RunningServer[] = []
const sockets: Socket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  for (const server of servers.splice(0)) await server.close()
})

async function serve(options: { headersTimeoutMs?: number; maxConnections?: number }) {
  const running = await listen(createServer({ name: 'slow', version: '1', logger: silentLogger }), {
    port: 0,
    shutdownGraceMs: 100,
    ...options,
  })
  servers.push(running)
  return running
}

/** A socket and what it received until the server closed it, with when that happened. */
function open(port: number): { socket: Socket; closed: Promise<{ after: number; text: string }> } {
  const started = Date.now()
  const socket = connect(port, '127.0.0.1')
  sockets.push(socket)
  let text = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => {
    text += chunk
  })
  socket.on('error', () => {})
  const closed = new Promise<{ after: number; text: string }>((resolve) =>
    socket.once('close', () => resolve({ after: Date.now() - started, text })),
  )
  return { socket, closed }
}

describe('slow and greedy clients', () => {
  it('cutsHeadersThatNeverFinishWith408WithinTheHeaderTimeout', async () => {
    const running = await serve({ headersTimeoutMs: 500 })
    const { socket, closed } = open(running.port)
    socket.write(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${running.port}\r\ncontent-type: appl`)
    const { after, text } = await closed
    expect(text).toMatch(/^HTTP\/1\.1 408 /)
    expect(after).toBeGreaterThanOrEqual(450)
    expect(after).toBeLessThan(2_500)
  })

  it('closesConnectionsBeyondMaxConnectionsAtOnceAndServesTheOthers', async () => {
    const running = await serve({ maxConnections: 2 })
    const first = open(running.port)
    const second = open(running.port)
    await new Promise((resolve) => setTimeout(resolve, 100))
    const third = open(running.port)
    const cut = await Promise.race([
      third.closed,
      new Promise((resolve) => setTimeout(() => resolve('open'), 1_000)),
    ])
    expect(cut).toMatchObject({ text: '' })
    const probe = `GET /healthz HTTP/1.1\r\nhost: 127.0.0.1:${running.port}\r\nconnection: close\r\n\r\n`
    first.socket.write(probe)
    expect((await first.closed).text).toMatch(/^HTTP\/1\.1 (404|405|200) /)
    second.socket.destroy()
  })
})
