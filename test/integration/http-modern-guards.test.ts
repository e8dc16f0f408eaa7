/**
 * @module http-modern-guards.test
 * The HTTP guards in front of the 2026-07-28 wire: 405 for GET and DELETE on a modern-only server,
 * 406 for a bad Accept, 415 for a bad Content-Type, 413 and 431 for oversize bodies and headers, 403
 * for a foreign Host or Origin (a localhost Origin passes), and 404 for other paths.
 */
import { describe, expect, it } from 'vitest'
import { envelope, rawPost, requestParts, resultOf } from '../helpers/mcp-http.ts'
import { client, main, useMainServer } from './fixtures/modern-server.ts'

useMainServer()

describe('HTTP guards', () => {
  const listBody = () => requestParts('tools/list', {})

  it('answersGetAndDeleteWith405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(main.url, {
        method,
        headers: { accept: 'application/json, text/event-stream' },
      })
      expect(response.status).toBe(405)
      await response.body?.cancel()
    }
  })

  it('answersABadAcceptWith406', async () => {
    const reply = await client.postRaw(listBody().body, { accept: 'application/json' })
    expect(reply.status).toBe(406)
  })

  it('answersABadContentTypeWith415', async () => {
    const reply = await client.postRaw(listBody().body, { 'content-type': 'text/plain' })
    expect(reply.status).toBe(415)
  })

  it('answersAnOversizeBodyWith413', async () => {
    const big = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: envelope(), pad: 'x'.repeat(10_000) },
    }
    const reply = await client.postRaw(big)
    expect(reply.status).toBe(413)
  })

  it('answersOversizeHeadersWith431', async () => {
    const { headers, body } = listBody()
    const reply = await rawPost(main.url, { ...headers, 'x-padding': 'y'.repeat(10_000) }, body)
    expect(reply.status).toBe(431)
  })

  it('refusesAForeignHostWith403', async () => {
    const { headers, body } = listBody()
    const reply = await rawPost(main.url, { ...headers, host: 'evil.example' }, body)
    expect(reply.status).toBe(403)
  })

  it('refusesAForeignOriginWith403', async () => {
    const reply = await client.postRaw(listBody().body, { origin: 'http://evil.example' })
    expect(reply.status).toBe(403)
  })

  it('acceptsALocalhostOrigin', async () => {
    const reply = await client.postRaw(listBody().body, { origin: `http://localhost:${main.port}` })
    expect(reply.status).toBe(200)
    expect(resultOf(reply).tools).toBeDefined()
  })

  it('answersOtherPathsWith404', async () => {
    const { headers, body } = listBody()
    const response = await fetch(main.url.replace('/mcp', '/other'), { method: 'POST', headers, body })
    expect(response.status).toBe(404)
    await response.body?.cancel()
  })
})
