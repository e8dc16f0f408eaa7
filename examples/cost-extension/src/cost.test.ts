/**
 * @module cost.test
 * The worked example of the extensions guide, as a client meets it: the currency advertised, the
 * cost listed with each tool, a quote before a call, and a wrong cost refused at registration.
 */
import { createServer } from '@tessera/core'
import { createFetchHandler } from '@tessera/core/http'
import { createTestClient, TestCallError } from '@tessera/core/testing'
import { describe, expect, it } from 'vitest'
import { COST_EXTENSION, costExtension } from './cost.ts'
import { createMeteredServer } from './server.ts'

describe('cost extension', () => {
  it('advertisesTheCurrencyAndListsEachToolsCost', async () => {
    const client = createTestClient(createMeteredServer())
    const discovered = await client.request('server/discover')
    expect(discovered.capabilities).toMatchObject({
      extensions: { [COST_EXTENSION]: { currency: 'credits' } },
    })
    const { tools } = (await client.request('tools/list')) as { tools: { name: string; _meta?: unknown }[] }
    expect(tools.map((tool) => [tool.name, tool._meta])).toEqual([
      ['translate', { [COST_EXTENSION]: { cost: 3, currency: 'credits' } }],
      ['ping', { [COST_EXTENSION]: { cost: 0, currency: 'credits' } }],
    ])
  })

  it('quotesAToolBeforeItIsCalledAndRefusesOneWithoutACost', async () => {
    const client = createTestClient(createMeteredServer())
    expect(await client.request('cost/quote', { name: 'translate' })).toMatchObject({
      name: 'translate',
      cost: 3,
      currency: 'credits',
    })
    const refused = await client.request('cost/quote', { name: 'nope' }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(TestCallError)
    expect(refused).toMatchObject({ code: -32602, message: "Invalid params: no tool 'nope' has a cost." })
  })

  it('isNotOfferedUntilAToolHasACost', async () => {
    const server = createServer({
      name: 'free',
      version: '1.0.0',
      extensions: [costExtension({ currency: 'credits' })],
    })
    server.tool('ping', { description: 'Answers pong' }, () => 'pong')
    const client = createTestClient(server)
    expect((await client.request('server/discover')).capabilities).not.toHaveProperty('extensions')
    await expect(client.request('cost/quote', { name: 'ping' })).rejects.toMatchObject({ code: -32601 })
  })

  it('refusesAWrongCostWhenTheToolIsRegistered', () => {
    const server = createMeteredServer()
    expect(() => server.tool('gift', { description: 'Free money', cost: -5 }, () => 'yes')).toThrow(
      "Tool 'gift': cost must be a whole number of credits, 0 or more.",
    )
  })

  it('mirrorsTheToolsNameInMcpNameOverHttp', async () => {
    const handle = createFetchHandler(createMeteredServer())
    const quote = (name: string | undefined) =>
      handle(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'cost/quote',
            ...(name === undefined ? {} : { 'mcp-name': name }),
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'cost/quote',
            params: {
              name: 'translate',
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientCapabilities': {},
              },
            },
          }),
        }),
      )
    expect((await quote('translate')).status).toBe(200)
    const mismatch = await quote('ping')
    expect(mismatch.status).toBe(400)
    expect(await mismatch.json()).toMatchObject({ error: { code: -32020 } })
  })
})
