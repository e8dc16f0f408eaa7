/**
 * @module trusted-proxy.test
 * A server behind a reverse proxy, over real HTTP on 127.0.0.1: with the proxy's address in
 * `trustProxy`, the public host it forwarded (`X-Forwarded-Host`, `Forwarded`) passes the Host
 * check against `allowedHosts` (`*.example.com` included); from a peer that is not a trusted
 * proxy the same request is refused 403, the body naming the host, `allowedHosts` and why the
 * forwarding headers were not read.
 */
import { createServer } from '@tessera/core'
import { type HttpOptions, listen, type RunningServer } from '@tessera/core/http'
import { afterEach, describe, expect, it } from 'vitest'
import { silentLogger } from '../helpers/silent-logger.ts'
import { rawDiscover, rawErrorMessage } from '../helpers/stalled-post.ts'

let running: RunningServer | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

async function serve(options: HttpOptions): Promise<RunningServer> {
  running = await listen(createServer({ name: 'proxied', version: '1', logger: silentLogger }), {
    host: '127.0.0.1',
    port: 0,
    ...options,
  })
  return running
}

const send = (server: RunningServer, lines: string[]) =>
  rawDiscover(server.url, [`host: 127.0.0.1:${server.port}`, ...lines])
const messageOf = rawErrorMessage

describe('behind a reverse proxy', () => {
  it('checksTheHostATrustedProxyForwarded', async () => {
    const server = await serve({
      trustProxy: ['127.0.0.1'],
      allowedHosts: ['mcp.example.com', '*.tenants.example'],
    })
    expect((await send(server, ['x-forwarded-host: mcp.example.com'])).status).toBe(200)
    expect(
      (await send(server, ['forwarded: for=203.0.113.9;host=acme.tenants.example;proto=https'])).status,
    ).toBe(200)
    const foreign = await send(server, ['x-forwarded-host: evil.example'])
    expect(foreign.status).toBe(403)
    expect(messageOf(foreign.body)).toBe(
      "Forbidden: the host the proxy forwarded 'evil.example' is not allowed: add it to allowedHosts.",
    )
    // Without forwarding headers, the Host the proxy connected with is checked as sent.
    expect((await send(server, [])).status).toBe(403)
  })

  it('refusesForwardedHeadersFromAPeerThatIsNotATrustedProxyNamingTheOption', async () => {
    const server = await serve({ trustProxy: ['10.0.0.0/8'], allowedHosts: ['mcp.example.com'] })
    const refused = await send(server, ['x-forwarded-host: mcp.example.com'])
    expect(refused.status).toBe(403)
    expect(messageOf(refused.body)).toBe(
      `Forbidden: Host '127.0.0.1:${server.port}' is not allowed: add it to allowedHosts (forwarding headers came from a peer that is not in trustProxy, and were not read).`,
    )
  })

  it('quotesOnlyAShortCleanedCopyOfTheHostItRefuses', async () => {
    const server = await serve({ trustProxy: 1, allowedHosts: ['mcp.example.com'] })
    const refused = await send(server, [`x-forwarded-host: é ${'a'.repeat(300)}`])
    expect(messageOf(refused.body)).toBe(
      `Forbidden: the host the proxy forwarded '???${'a'.repeat(61)}…' is not allowed: add it to allowedHosts.`,
    )
  })
})
