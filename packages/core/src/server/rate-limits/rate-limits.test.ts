/**
 * @module rate-limits.test
 * Rate limits as a client meets them: a caller over its limit gets 429 with `Retry-After` and
 * -32600 naming the limit, while another caller is not held back; a tool's own limit, a method's
 * and the server's; a store that cannot be reached refuses
 * (503) unless the limit says `allow`; limits checked when given.
 */
import { describe, expect, it } from 'vitest'
import { fetchClient } from '../../../../../test/helpers/fetch-client.ts'
import { bearer, bearerJsonAuth, errorOf, resultOf } from '../../../../../test/helpers/mcp-http.ts'
import { silentLogger } from '../../../../../test/helpers/silent-logger.ts'
import { createServer } from '../create-server.ts'
import type { ServerOptions } from '../server.ts'

const serve = (options: Partial<ServerOptions> = {}) =>
  createServer({ name: 'limited', version: '1.0.0', logger: silentLogger, ...options })
    .tool('ping', { description: 'pong' }, () => 'pong')
    .tool('deploy', { description: 'deploys', rateLimit: { calls: 1, perMs: 60_000 } }, () => 'deployed')

const ann = { headers: bearer({ issuer: 'idp', subject: 'ann', scopes: [] }) }
const bob = { headers: bearer({ issuer: 'idp', subject: 'bob', scopes: [] }) }

describe('rate limits', () => {
  it('refusesACallerOverItsLimitWith429AndRetryAfterButNotAnother', async () => {
    const client = fetchClient(serve({ rateLimits: { caller: { calls: 2, perMs: 60_000 } } }), {
      auth: bearerJsonAuth,
    })
    expect((await client.callTool('ping', {}, ann)).status).toBe(200)
    expect((await client.callTool('ping', {}, ann)).status).toBe(200)
    const refused = await client.callTool('ping', {}, ann)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(29)
    expect(errorOf(refused)).toMatchObject({
      code: -32600,
      message: expect.stringMatching(
        /^Too many requests: every caller is limited to 2 per 60000 ms; retry in \d+ s\.$/,
      ),
    })
    expect((await client.callTool('ping', {}, bob)).status).toBe(200)
  })

  it('holdsAToolToItsOwnLimitAndTheServerToItsLimitAcrossCallers', async () => {
    const client = fetchClient(serve({ rateLimits: { server: { calls: 3, perMs: 60_000 } } }), {
      auth: bearerJsonAuth,
    })
    expect(resultOf(await client.callTool('deploy', {}, ann)).content).toEqual([
      { type: 'text', text: 'deployed' },
    ])
    expect(errorOf(await client.callTool('deploy', {}, ann)).message).toContain(
      "tools/call of 'deploy' for every caller is limited to 1 per 60000 ms",
    )
    expect((await client.callTool('deploy', {}, bob)).status).toBe(200)
    // The server's bucket of 3 went to the three calls before: everyone is held now.
    expect(errorOf(await client.callTool('ping', {}, bob)).message).toContain('this server is limited to 3')
  })

  it('limitsOneMethodPerCaller', async () => {
    const client = fetchClient(
      serve({ rateLimits: { methods: { 'tools/list': { calls: 1, perMs: 60_000 } } } }),
    )
    expect((await client.request('tools/list')).status).toBe(200)
    expect((await client.request('tools/list')).status).toBe(429)
    expect((await client.callTool('ping')).status).toBe(200)
  })

  it('refusesWhenTheStoreFailsUnlessTheLimitAllows', async () => {
    const broken = { take: () => Promise.reject(new Error('down')), close: async () => {} }
    const refusing = fetchClient(
      serve({ stores: { rateLimits: broken }, rateLimits: { caller: { calls: 5, perMs: 1000 } } }),
    )
    const refused = await refusing.callTool('ping')
    expect(refused.status).toBe(503)
    expect(errorOf(refused).message).toBe(
      'Service unavailable: the rate limit could not be checked; retry later.',
    )
    const allowing = fetchClient(
      serve({
        stores: { rateLimits: broken },
        rateLimits: { caller: { calls: 5, perMs: 1000, onStoreError: 'allow' } },
      }),
    )
    expect((await allowing.callTool('ping')).status).toBe(200)
  })

  it('refusesALimitThatIsNoLimitWhenGiven', () => {
    expect(() => serve({ rateLimits: { caller: { calls: 0, perMs: 1000 } } })).toThrow(
      'createServer: rateLimits.caller.calls must be a positive integer.',
    )
    expect(() => serve({ rateLimits: { caler: { calls: 1, perMs: 1 } } as never })).toThrow(/caler.*caller/)
    expect(() =>
      serve({ rateLimits: { server: { calls: 1, perMs: 1, onStoreError: 'maybe' as never } } }),
    ).toThrow("rateLimits.server.onStoreError must be 'refuse' or 'allow'")
  })
})
