/**
 * @module http-modern-headers.test
 * The mirrored headers of the 2026-07-28 wire (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`):
 * refused when missing, different from the body, repeated or badly Base64-encoded, ignored where the
 * method has no name; and the headers the test helper itself sends.
 */
import { describe, expect, it } from 'vitest'
import {
  envelope,
  errorOf,
  mcpHeaders,
  rawPost,
  requestParts,
  resultOf,
  textOf,
  VERSION,
} from '../helpers/mcp-http.ts'
import { client, main, useMainServer } from './fixtures/modern-server.ts'

useMainServer()

describe('header mirrors', () => {
  it('refusesAVersionHeaderThatDiffersFromTheBody', async () => {
    const reply = await client.request(
      'tools/list',
      {},
      { headers: { 'mcp-protocol-version': '2025-11-25' } },
    )
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32020)
  })

  it('refusesAMissingVersionHeader', async () => {
    const reply = await client.request('tools/list', {}, { headers: { 'mcp-protocol-version': null } })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32020)
  })

  it('refusesAMethodHeaderThatDiffersOrIsMissing', async () => {
    for (const value of ['tools/call', 'TOOLS/LIST', null]) {
      const reply = await client.request('tools/list', {}, { headers: { 'mcp-method': value } })
      expect(reply.status).toBe(400)
      expect(errorOf(reply).code).toBe(-32020)
    }
  })

  it('refusesANameHeaderThatDiffersOrIsMissing', async () => {
    for (const value of ['typed', 'Echo', null]) {
      const reply = await client.callTool('echo', { text: 'x' }, { headers: { 'mcp-name': value } })
      expect(reply.status).toBe(400)
      expect(errorOf(reply).code).toBe(-32020)
    }
  })

  it('refusesAResourceNameHeaderThatIsNotTheUri', async () => {
    const reply = await client.request(
      'resources/read',
      { uri: 'config://server' },
      { headers: { 'mcp-name': 'server-config' } },
    )
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32020)
  })

  it('acceptsANameHeaderInTheBase64Sentinel', async () => {
    const encoded = `=?base64?${Buffer.from('echo').toString('base64')}?=`
    const reply = await client.callTool('echo', { text: 'b64' }, { headers: { 'mcp-name': encoded } })
    expect(reply.status).toBe(200)
    expect(textOf(resultOf(reply))).toBe('echo: b64')
  })

  it('refusesABadBase64Sentinel', async () => {
    const reply = await client.callTool(
      'echo',
      { text: 'x' },
      { headers: { 'mcp-name': '=?base64?ZWNob!!?=' } },
    )
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32020)
  })

  it('refusesARepeatedVersionOrMethodHeader', async () => {
    const { headers, body } = requestParts('tools/list', {})
    const repeats: Array<Record<string, string[]>> = [
      { 'mcp-protocol-version': [VERSION, VERSION] },
      { 'mcp-method': ['tools/list', 'tools/list'] },
    ]
    for (const extra of repeats) {
      const reply = await rawPost(main.url, { ...headers, ...extra }, body)
      expect(reply.status).toBe(400)
      expect((JSON.parse(reply.body) as { error: { code: number } }).error.code).toBe(-32020)
    }
  })

  it('ignoresANameHeaderOnAMethodWithoutAName', async () => {
    const reply = await client.request('tools/list', {}, { headers: { 'mcp-name': 'anything' } })
    expect(reply.status).toBe(200)
    expect(resultOf(reply).tools).toBeDefined()
  })

  it('refusesARepeatedNameHeader', async () => {
    const { headers, body } = requestParts('tools/call', { name: 'echo', arguments: { text: 'x' } })
    for (const values of [
      ['echo', 'echo'],
      ['echo', 'typed'],
    ]) {
      const reply = await rawPost(main.url, { ...headers, 'mcp-name': values }, body)
      expect(reply.status).toBe(400)
      expect((JSON.parse(reply.body) as { error: { code: number } }).error.code).toBe(-32020)
    }
  })
})

describe('headers sent by the helper', () => {
  it('mirrorsMethodVersionAndName', () => {
    const headers = mcpHeaders('tools/call', { name: 'echo', _meta: envelope() })
    expect(headers).toMatchObject({
      'mcp-method': 'tools/call',
      'mcp-protocol-version': VERSION,
      'mcp-name': 'echo',
    })
  })
})
