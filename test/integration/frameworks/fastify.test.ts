/**
 * @module fastify.test
 * The node listener inside a real Fastify 5 app, from a route that hijacks the reply: Fastify
 * has parsed the body already and hands it over as `req.body`; the endpoint sits beside Fastify's
 * own routes and, under a prefix, at the path the listener is told. A route that forgets to hand
 * the parsed body over gets a 500 that says so, at once, instead of waiting for a drained stream.
 */
import { createNodeListener, type NodeListener } from '@tessera/core/http'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorOf, McpHttpClient, resultOf, textOf } from '../../helpers/mcp-http.ts'
import { expectServesMcp, type FrameworkServer, frameworkServer } from '../fixtures/framework-server.ts'

let server: FrameworkServer
let fastify: FastifyInstance
let base: string

/** Hands a Fastify request to the listener, with the body Fastify parsed. */
const mount =
  (mcp: NodeListener) =>
  (request: FastifyRequest, reply: FastifyReply): void => {
    reply.hijack()
    mcp(Object.assign(request.raw, { body: request.body }), reply.raw)
  }

beforeAll(async () => {
  server = frameworkServer()
  fastify = Fastify()
  fastify.get('/health', async () => ({ ok: true }))
  fastify.all('/mcp', mount(createNodeListener(server.app)))
  await fastify.register(
    async (scope) => {
      scope.all('/mcp', mount(createNodeListener(server.app, { path: '/v1/mcp' })))
    },
    { prefix: '/v1' },
  )
  const forgetful = createNodeListener(server.app, { path: '/forgetful' })
  fastify.all('/forgetful', (request, reply) => {
    reply.hijack()
    forgetful(request.raw, reply.raw)
  })
  base = await fastify.listen({ port: 0, host: '127.0.0.1' })
})

afterAll(() => fastify.close())

describe('Fastify', () => {
  it('servesMcpFromAHijackingRoute', async () => {
    await expectServesMcp(`${base}/mcp`, server)
  })

  it('leavesFastifyOwnRoutesToFastify', async () => {
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ ok: true })
  })

  it('servesUnderAPrefixAtThePathItIsTold', async () => {
    const reply = await new McpHttpClient(`${base}/v1/mcp`).callTool('echo', { text: 'prefixed' })
    expect(textOf(resultOf(reply))).toBe('echo: prefixed')
  })

  it('saysSoWhenTheRouteDidNotHandTheParsedBodyOver', async () => {
    const started = Date.now()
    const reply = await new McpHttpClient(`${base}/forgetful`).callTool('echo', { text: 'lost' })
    expect(reply.status).toBe(500)
    expect(errorOf(reply).message).toContain('not kept in req.body')
    expect(Date.now() - started).toBeLessThan(2_000)
  })
})
