/**
 * @module express.test
 * The node listener inside a real Express 5 app: mounted under a path beside Express's own
 * routes, behind `express.json()` and `express.text()` that already read the body, as a route
 * handler on any path, and ahead of the body parsers, where a body that never arrives gets 408;
 * a middleware that drains the body without keeping it gets a 500 that says so, at once.
 */
import type { AddressInfo } from 'node:net'
import { createNodeListener } from '@tessera/core/http'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { McpHttpClient, resultOf, textOf } from '../../helpers/mcp-http.ts'
import { stalledPost } from '../../helpers/stalled-post.ts'
import { expectServesMcp, type FrameworkServer, frameworkServer } from '../fixtures/framework-server.ts'

let server: FrameworkServer
let base: string
let close: () => Promise<void>

beforeAll(async () => {
  server = frameworkServer()
  const mcp = createNodeListener(server.app, { bodyTimeoutMs: 200 })
  const web = express()
  web.get('/health', (_req, res) => {
    res.type('text').send('ok')
  })
  // Ahead of any body parser: the listener reads the body itself, with its deadline.
  web.use('/direct', mcp)
  web.use('/text', express.text({ type: '*/*' }), mcp)
  web.use(
    '/drained',
    (req, _res, next) => {
      req.resume().once('end', () => next())
    },
    mcp,
  )
  web.use(express.json({ limit: '1mb' }))
  web.use('/api', mcp)
  web.use('/mcp', mcp)
  web.post('/rpc', mcp)
  const http = web.listen(0, '127.0.0.1')
  await new Promise<void>((resolve) => http.once('listening', resolve))
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  close = () => new Promise((resolve) => http.close(() => resolve()))
})

afterAll(() => close())

describe('Express', () => {
  it('servesMcpUnderAMountPathBehindExpressJson', async () => {
    await expectServesMcp(`${base}/api/mcp`, server)
  })

  it('leavesExpressOwnRoutesAndOtherPathsToExpress', async () => {
    expect(await (await fetch(`${base}/health`)).text()).toBe('ok')
    const other = await fetch(`${base}/api/other`, { method: 'POST', body: '{}' })
    expect(other.status).toBe(404)
    expect(await other.text()).toContain('Cannot POST /api/other')
  })

  it('servesAListenerMountedAtTheEndpointItself', async () => {
    const reply = await new McpHttpClient(`${base}/mcp`).callTool('echo', { text: 'exact' })
    expect(textOf(resultOf(reply))).toBe('echo: exact')
  })

  it('servesARouteWhateverItsPath', async () => {
    const reply = await new McpHttpClient(`${base}/rpc`).callTool('echo', { text: 'route' })
    expect(textOf(resultOf(reply))).toBe('echo: route')
  })

  it('takesTheBodyExpressTextKeptAsAString', async () => {
    const reply = await new McpHttpClient(`${base}/text/mcp`).callTool('echo', { text: 'as text' })
    expect(textOf(resultOf(reply))).toBe('echo: as text')
  })

  it('readsTheBodyItselfAheadOfTheParsers', async () => {
    const reply = await new McpHttpClient(`${base}/direct/mcp`).callTool('echo', { text: 'direct' })
    expect(textOf(resultOf(reply))).toBe('echo: direct')
  })

  it('saysSoWhenAMiddlewareReadTheBodyAndKeptNoCopy', async () => {
    const reply = await new McpHttpClient(`${base}/drained/mcp`).callTool('echo', { text: 'lost' })
    expect(reply.status).toBe(500)
    expect(reply.body?.error).toEqual({
      code: -32603,
      message: 'Internal error: the request body was read before the MCP endpoint and not kept in req.body.',
    })
  })

  it('answersABodyThatNeverArrivesWith408WithinTheDeadline', async () => {
    const started = Date.now()
    const reply = await stalledPost(`${base}/direct/mcp`)
    expect(reply.status).toBe(408)
    expect(reply.headers.connection).toBe('close')
    expect(JSON.parse(reply.body).error).toEqual({
      code: -32600,
      message: 'Request timeout: the request body did not arrive within 200 ms.',
    })
    expect(Date.now() - started).toBeLessThan(2_000)
  })
})
