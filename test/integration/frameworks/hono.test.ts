/**
 * @module hono.test
 * The fetch handler inside a real Hono 4 app served by `@hono/node-server`: the endpoint beside
 * Hono's own routes, streamed answers passing through Hono untouched, and a body that never
 * arrives answered 408 within the deadline.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { createFetchHandler } from '@tessera/core/http'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stalledPost } from '../../helpers/stalled-post.ts'
import { expectServesMcp, type FrameworkServer, frameworkServer } from '../fixtures/framework-server.ts'

let server: FrameworkServer
let base: string
let close: () => Promise<void>

beforeAll(async () => {
  server = frameworkServer()
  const mcp = createFetchHandler(server.app, { bodyTimeoutMs: 200 })
  const web = new Hono()
  web.get('/health', (c) => c.text('ok'))
  web.all('/mcp', (c) => mcp(c.req.raw))
  const http = serve({ fetch: web.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((resolve) => http.once('listening', resolve))
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  close = () => new Promise((resolve) => http.close(() => resolve()))
})

afterAll(() => close())

describe('Hono', () => {
  it('servesMcpThroughTheFetchHandler', async () => {
    await expectServesMcp(`${base}/mcp`, server)
  })

  it('leavesHonoOwnRoutesAndOtherPathsToHono', async () => {
    expect(await (await fetch(`${base}/health`)).text()).toBe('ok')
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404)
  })

  it('answersABodyThatNeverArrivesWith408WithinTheDeadline', async () => {
    const started = Date.now()
    const reply = await stalledPost(`${base}/mcp`)
    expect(reply.status).toBe(408)
    expect(JSON.parse(reply.body).error.code).toBe(-32600)
    expect(Date.now() - started).toBeLessThan(2_000)
  })
})
