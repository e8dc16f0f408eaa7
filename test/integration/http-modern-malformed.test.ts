/**
 * @module http-modern-malformed.test
 * Malformed and refused messages on the 2026-07-28 wire, each with its JSON-RPC code and HTTP
 * status: parse errors with line and column, batches and non-objects, a wrong jsonrpc or a null id,
 * a missing envelope or capabilities, unsupported versions, unknown and removed methods, a response
 * posted as a request, a notification answered 202, and a body that never arrives answered 408.
 */
import { createServer } from '@tessera/core'
import { listen } from '@tessera/core/http'
import { describe, expect, it } from 'vitest'
import { envelope, errorOf, META, VERSION } from '../helpers/mcp-http.ts'
import { silentLogger } from '../helpers/silent-logger.ts'
import { stalledPost } from '../helpers/stalled-post.ts'
import { client, useMainServer } from './fixtures/modern-server.ts'

useMainServer()

describe('malformed messages', () => {
  it('reportsLineAndColumnOfAParseErrorWith400', async () => {
    const body = '{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": "tools/list" oops\n}'
    const reply = await client.postRaw(body)
    expect(reply.status).toBe(400)
    const error = errorOf(reply)
    expect(error.code).toBe(-32700)
    const column = '  "method": "tools/list" oops'.indexOf('oops') + 1
    expect(error.message).toContain(`line 4, column ${column}`)
    expect(reply.body).not.toHaveProperty('id')
  })

  it('refusesAJsonArrayAsInvalidRequest', async () => {
    const single = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } }
    const reply = await client.postRaw([single])
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32600)
  })

  it('refusesNonObjectJsonAsInvalidRequest', async () => {
    for (const body of ['"hello"', '42', 'null', 'true']) {
      const reply = await client.postRaw(body)
      expect(reply.status).toBe(400)
      expect(errorOf(reply).code).toBe(-32600)
    }
  })

  it('refusesJsonrpc10AsInvalidRequest', async () => {
    const reply = await client.postRaw({
      jsonrpc: '1.0',
      id: 7,
      method: 'tools/list',
      params: { _meta: envelope() },
    })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32600)
  })

  it('refusesANullIdAsInvalidRequest', async () => {
    const reply = await client.postRaw({
      jsonrpc: '2.0',
      id: null,
      method: 'tools/list',
      params: { _meta: envelope() },
    })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32600)
    expect(reply.body).not.toHaveProperty('id')
  })

  it('refusesARequestWithoutMetaWith400', async () => {
    const reply = await client.postRaw({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32602)
    expect(reply.body?.id).toBe(3)
  })

  it('refusesARequestWithoutParamsWith400', async () => {
    const reply = await client.postRaw({ jsonrpc: '2.0', id: 4, method: 'tools/list' })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32602)
  })

  it('refusesMissingClientCapabilitiesWith400', async () => {
    const reply = await client.postRaw({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/list',
      params: { _meta: { [META.protocolVersion]: VERSION } },
    })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32602)
  })

  it('refusesAnUnsupportedVersionWithSupportedAndRequested', async () => {
    const reply = await client.request(
      'tools/list',
      {},
      {
        meta: { [META.protocolVersion]: '1900-01-01' },
        headers: { 'mcp-protocol-version': '1900-01-01' },
      },
    )
    expect(reply.status).toBe(400)
    const error = errorOf(reply)
    expect(error.code).toBe(-32022)
    expect(error.data).toEqual({ supported: [VERSION], requested: '1900-01-01' })
  })

  it('refusesA2025VersionInAModernEnvelope', async () => {
    const reply = await client.request(
      'tools/list',
      {},
      {
        meta: { [META.protocolVersion]: '2025-11-25' },
        headers: { 'mcp-protocol-version': '2025-11-25' },
      },
    )
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32022)
  })

  it('refusesAnUnknownMethodWith404', async () => {
    const reply = await client.request('tools/frobnicate')
    expect(reply.status).toBe(404)
    expect(errorOf(reply).code).toBe(-32601)
  })

  it('refusesRemovedMethodsWith404', async () => {
    for (const method of ['ping', 'logging/setLevel', 'resources/subscribe']) {
      const reply = await client.request(method)
      expect(reply.status).toBe(404)
      expect(errorOf(reply).code).toBe(-32601)
    }
  })

  it('refusesABadLogLevelWithInvalidParams', async () => {
    const reply = await client.request('tools/list', {}, { meta: { [META.logLevel]: 'verbose' } })
    expect(errorOf(reply).code).toBe(-32602)
  })

  it('refusesAJsonRpcResponseBodyWith400', async () => {
    const reply = await client.postRaw({ jsonrpc: '2.0', id: 9, result: {} })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32600)
  })

  it('acceptsANotificationWith202AndAnEmptyBody', async () => {
    const reply = await client.postRaw(
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { 'mcp-method': null, 'mcp-protocol-version': null },
    )
    expect(reply.status).toBe(202)
    expect(reply.raw).toBe('')
  })

  it('answersABodyThatNeverArrivesWith408AndClosesTheConnection', async () => {
    const app = createServer({ name: 'it-stalled', version: '1.0.0', logger: silentLogger })
    const running = await listen(app, { port: 0, bodyTimeoutMs: 100 })
    try {
      const reply = await stalledPost(running.url)
      expect(reply.status).toBe(408)
      expect(reply.headers.connection).toBe('close')
      expect(JSON.parse(reply.body).error.code).toBe(-32600)
    } finally {
      await running.close()
    }
  })
})
