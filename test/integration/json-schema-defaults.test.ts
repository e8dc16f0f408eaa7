/**
 * @module json-schema-defaults.test
 * A tool declared with a raw JSON Schema gets its `default`s applied before the handler runs, in
 * both eras over real HTTP, and advertises the schema as written; the handler sees what it would
 * see from the equivalent zod schema.
 */
import { createServer } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { HandshakeClient, resultOf as sessionResult } from '../helpers/handshake-client.ts'
import { capturingLogger, McpHttpClient, resultOf, textOf } from '../helpers/mcp-http.ts'

const SCALE_SCHEMA = {
  type: 'object',
  properties: { service: { type: 'string' }, replicas: { type: 'integer', default: 3 } },
  required: ['service'],
}

let running: RunningServer

beforeAll(async () => {
  const app = createServer({ name: 'it-defaults', version: '1.0.0', logger: capturingLogger() })
  const scaled = ({ service, replicas }: { service: string; replicas: number }) =>
    `Scaled ${service} to ${replicas} replicas.`
  app.tool('scale', { description: 'raw JSON Schema', input: SCALE_SCHEMA }, (args) =>
    scaled(args as { service: string; replicas: number }),
  )
  app.tool(
    'scale-zod',
    {
      description: 'the same in zod',
      input: z.object({ service: z.string(), replicas: z.number().int().default(3) }),
    },
    scaled,
  )
  running = await listen(app, { host: '127.0.0.1', port: 0 })
})

afterAll(() => running.close())

describe('JSON Schema defaults', () => {
  it('appliesThemOn2026AsZodDoes', async () => {
    const client = new McpHttpClient(running.url)
    for (const tool of ['scale', 'scale-zod']) {
      expect(textOf(resultOf(await client.callTool(tool, { service: 'api' })))).toBe(
        'Scaled api to 3 replicas.',
      )
      expect(textOf(resultOf(await client.callTool(tool, { service: 'api', replicas: 5 })))).toBe(
        'Scaled api to 5 replicas.',
      )
    }
    const listed = resultOf(await client.request('tools/list')).tools as Array<{
      name: string
      inputSchema: unknown
    }>
    expect(listed.find((t) => t.name === 'scale')?.inputSchema).toEqual(SCALE_SCHEMA)
  })

  it('appliesThemInAHandshakeSession', async () => {
    const session = await HandshakeClient.connect(running.url)
    const reply = await session.callTool('scale', { service: 'api' })
    expect(textOf(sessionResult(reply))).toBe('Scaled api to 3 replicas.')
  })
})
