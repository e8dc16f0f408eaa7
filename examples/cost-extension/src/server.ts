/**
 * @module server
 * A server that charges for its tools, through the cost extension.
 */
import { createServer, type McpServer } from '@tessera/core'
import { z } from 'zod'
import { costExtension } from './cost.ts'

/** The metered server: `translate` costs 3 credits a call, `ping` nothing at all. */
export function createMeteredServer(): McpServer {
  const server = createServer({
    name: 'metered',
    version: '1.0.0',
    extensions: [costExtension({ currency: 'credits' })],
  })
  server.tool(
    'translate',
    {
      description: 'Translate a text into another language',
      input: z.object({ text: z.string(), to: z.string() }),
      cost: 3,
    },
    ({ text, to }) => `[${to}] ${text}`,
  )
  server.tool('ping', { description: 'Answers pong', cost: 0 }, () => 'pong')
  return server
}
