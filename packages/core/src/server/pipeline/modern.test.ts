/**
 * @module modern.test
 * The 2026-07-28 pipeline through the fetch face: the checks run in their order (the `_meta`,
 * the version header, the version, the method header, the method, the name header), each fault
 * with its code and status, and every result leaves with `resultType` and `serverInfo`, encoded
 * the same whether it was spliced as text or built as an object; a result encoded once for many
 * callers (the tool list, the discovery) follows every registration.
 */
import { describe, expect, it } from 'vitest'
import { fetchClient } from '../../../../../test/helpers/fetch-client.ts'
import { errorOf, type Json, resultOf } from '../../../../../test/helpers/mcp-http.ts'
import { silentLogger } from '../../../../../test/helpers/silent-logger.ts'
import { createServer } from '../create-server.ts'

function serve(options: { serverInfoInResults?: boolean } = {}) {
  const app = createServer({ name: 'pipeline', version: '1.0.0', logger: silentLogger, ...options })
  app.tool('plain', { description: 'Plain' }, () => ({ content: [{ type: 'text', text: 'ok' }] }))
  app.tool('own-meta', { description: 'Has _meta' }, () => ({
    content: [{ type: 'text', text: 'ok' }],
    _meta: { 'example.com/trace': 't-1' },
  }))
  return fetchClient(app)
}

const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'pipeline', version: '1.0.0' } }

describe('the order of the checks', () => {
  it('readsTheMetaFirst', async () => {
    const client = serve()
    const reply = await client.request('tools/list', {
      _meta: { 'io.modelcontextprotocol/protocolVersion': 5 },
    })
    expect(reply.status).toBe(400)
    expect(errorOf(reply)).toMatchObject({
      code: -32602,
      message: expect.stringContaining('protocolVersion'),
    })
  })

  it('checksTheVersionHeaderBeforeTheVersion', async () => {
    const client = serve()
    const meta = { 'io.modelcontextprotocol/protocolVersion': '1999-01-01' }
    const mismatch = await client.request(
      'tools/list',
      { _meta: meta },
      { headers: { 'mcp-protocol-version': '2026-07-28' } },
    )
    expect(errorOf(mismatch).code).toBe(-32020)
    const unsupported = await client.request('tools/list', { _meta: meta })
    expect(unsupported.status).toBe(400)
    expect(errorOf(unsupported)).toMatchObject({
      code: -32022,
      data: {
        supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
        requested: '1999-01-01',
      },
    })
  })

  it('checksTheMethodHeaderBeforeTheMethod', async () => {
    const client = serve()
    const mismatch = await client.request('no/such', {}, { headers: { 'mcp-method': 'tools/list' } })
    expect(errorOf(mismatch).code).toBe(-32020)
    const unknown = await client.request('no/such')
    expect(unknown.status).toBe(404)
    expect(errorOf(unknown)).toEqual({ code: -32601, message: 'Method not found: no/such.' })
  })

  it('checksTheNameHeaderAfterTheMethodIsKnown', async () => {
    const client = serve()
    const reply = await client.callTool('plain', {}, { headers: { 'mcp-name': 'other' } })
    expect(errorOf(reply)).toMatchObject({ code: -32020, message: expect.stringContaining('Mcp-Name') })
  })

  it('clipsAHugeUnknownMethodInItsMessage', async () => {
    const client = serve()
    const method = `x/${'m'.repeat(500)}`
    const error = errorOf(await client.request(method))
    expect(error.message.length).toBeLessThan(100)
  })
})

describe('results', () => {
  it('addsResultTypeAndServerInfoToEveryResult', async () => {
    const client = serve()
    const result = resultOf(await client.callTool('plain'))
    expect(result).toEqual({
      content: [{ type: 'text', text: 'ok' }],
      resultType: 'complete',
      _meta: SERVER_INFO,
    })
  })

  it('keepsAResultsOwnMetaBesideServerInfo', async () => {
    const client = serve()
    const result = resultOf(await client.callTool('own-meta'))
    expect(result._meta).toEqual({ 'example.com/trace': 't-1', ...SERVER_INFO })
  })

  it('encodesASplicedResultExactlyLikeABuiltOne', async () => {
    const client = serve()
    const reply = await client.callTool('plain', {}, { id: 'a"b' })
    expect(JSON.parse(reply.raw)).toEqual({
      jsonrpc: '2.0',
      id: 'a"b',
      result: { content: [{ type: 'text', text: 'ok' }], resultType: 'complete', _meta: SERVER_INFO },
    })
  })

  it('leavesServerInfoOutWhenAskedTo', async () => {
    const client = serve({ serverInfoInResults: false })
    const result = resultOf(await client.request('server/discover')) as Json
    expect(result).not.toHaveProperty('_meta')
    expect(result.resultType).toBe('complete')
  })
})

describe('results encoded once for every caller', () => {
  it('listsAToolRegisteredAfterTheListWasEncodedAndForgetsARemovedOne', async () => {
    const app = createServer({ name: 'lists', version: '1.0.0', logger: silentLogger })
    app.tool('first', { description: 'First' }, () => 'ok')
    const client = fetchClient(app)
    const names = async () =>
      ((resultOf(await client.request('tools/list')) as Json).tools as Json[]).map((t) => t.name)
    expect(await names()).toEqual(['first'])
    expect(await names()).toEqual(['first'])
    app.tool('second', { description: 'Second' }, () => 'ok')
    expect(await names()).toEqual(['first', 'second'])
    app.removeTool('first')
    expect(await names()).toEqual(['second'])
  })

  it('answersEachIdWithTheSharedEncoding', async () => {
    const client = serve()
    const first = await client.request('tools/list', {}, { id: 7 })
    const second = await client.request('tools/list', {}, { id: 'x' })
    expect(JSON.parse(first.raw).id).toBe(7)
    expect(JSON.parse(second.raw)).toEqual({ ...JSON.parse(first.raw), id: 'x' })
  })

  it('discoversACapabilityGainedByALaterRegistration', async () => {
    const app = createServer({ name: 'caps', version: '1.0.0', logger: silentLogger })
    app.tool('only', { description: 'Only' }, () => 'ok')
    const client = fetchClient(app)
    const capabilities = async () => (resultOf(await client.request('server/discover')) as Json).capabilities
    expect(await capabilities()).toEqual({ tools: { listChanged: true } })
    app.prompt('greet', { description: 'Greet' }, () => ({ messages: [] }))
    expect(await capabilities()).toEqual({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    })
  })
})
