/**
 * @module rate-limits.test
 * Rate limits over real HTTP on 127.0.0.1: anonymous callers told apart by the address a trusted
 * proxy forwarded for (one over its limit, another not held back), and a 2025-11-25 session over
 * its limit answered 429 with `Retry-After`, as a 2026-07-28 request is.
 */
import { createServer } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { afterEach, describe, expect, it } from 'vitest'
import { HandshakeClient } from '../helpers/handshake-client.ts'
import { errorOf, McpHttpClient } from '../helpers/mcp-http.ts'
import { silentLogger } from '../helpers/silent-logger.ts'

let running: RunningServer | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

async function serve(): Promise<RunningServer> {
  const app = createServer({
    name: 'limited',
    version: '1.0.0',
    logger: silentLogger,
    rateLimits: { caller: { calls: 2, perMs: 60_000 } },
  })
  app.tool('ping', { description: 'pong' }, () => 'pong')
  running = await listen(app, { port: 0, trustProxy: ['127.0.0.1'] })
  return running
}

describe('rate limits over HTTP', () => {
  it('tellsAnonymousCallersApartByTheAddressATrustedProxyForwardedFor', async () => {
    const client = new McpHttpClient((await serve()).url)
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } })
    expect((await client.callTool('ping', {}, from('198.51.100.1'))).status).toBe(200)
    expect((await client.callTool('ping', {}, from('198.51.100.1'))).status).toBe(200)
    const refused = await client.callTool('ping', {}, from('198.51.100.1'))
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(errorOf(refused).code).toBe(-32600)
    expect((await client.callTool('ping', {}, from('198.51.100.2'))).status).toBe(200)
  })

  it('answersA2025SessionOverItsLimitWith429AndRetryAfter', async () => {
    const session = await HandshakeClient.connect((await serve()).url)
    for (let i = 0; i < 2; i++)
      expect((await session.request('tools/call', { name: 'ping', arguments: {} })).status).toBe(200)
    const refused = await session.request('tools/call', { name: 'ping', arguments: {} })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
  })
})
