/**
 * @module telemetry-values.test
 * What telemetry records of values: a tool's arguments and result only when it opted in, never a
 * question's requestState; nothing of a token, a state, an argument or a mirrored header in any
 * span, metric or log line of a scripted scenario (the logs at `trace`, through pino with the
 * default options); and the handshake sessions gauge, read from the session store, with the
 * `initialize` that opens each one as a span of its own.
 */

import { pino } from 'pino'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fetchClient, fetchFace } from '../../../../test/helpers/fetch-client.ts'
import { bearer, bearerJsonAuth, type Json, resultOf } from '../../../../test/helpers/mcp-http.ts'
import { type InstalledOtel, installOtel } from '../../../../test/helpers/otel.ts'
import type { Logger } from '../observation/logger.ts'
import { loggerOptions } from '../observation/pino-logger.ts'
import { generateStateKey } from '../security/request-state/key-ring.ts'
import { createServer } from './create-server.ts'
import type { McpServer } from './mcp-server.ts'
import { elicitForm } from './mrtr/input-requests.ts'

let otel: InstalledOtel
beforeAll(() => {
  otel = installOtel()
})
afterAll(() => otel.uninstall())
beforeEach(() => otel.reset())

const made: McpServer[] = []
afterEach(async () => {
  for (const app of made.splice(0)) await app.close()
})

/** Pino as the default logger makes it, at `trace`, into memory. */
function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = []
  const logger = pino({ ...loggerOptions(), level: 'trace' }, { write: (line: string) => lines.push(line) })
  return Object.assign(logger, { lines })
}

function server(logger: Logger = memoryLogger()): McpServer {
  const app = createServer({
    name: 'values',
    version: '1.0.0',
    logger,
    requestState: { keys: [generateStateKey('values')] },
  })
  const region = { type: 'string', 'x-mcp-header': 'Region' } as const
  const input = { type: 'object', properties: { region, note: { type: 'string' } }, required: ['region'] }
  app.tool('open', { description: 'records nothing', input }, ({ region }) => `deployed to ${region}`)
  app.tool(
    'traced',
    { description: 'records both', input, trace: { arguments: true, result: true } },
    ({ region }) => ({ content: [{ type: 'text', text: `seen ${region}` }], structuredContent: { region } }),
  )
  app.tool(
    'asks',
    { description: 'asks first', input, trace: { result: true }, singleUse: true },
    async (_a, ctx) => {
      const answer = await ctx.ask(
        'go',
        elicitForm({ message: 'Go?', schema: z.object({ ok: z.boolean() }) }),
      )
      return answer.action === 'accept' ? 'went' : 'stayed'
    },
  )
  app.tool('throws', { description: 'fails', input }, () => {
    throw new Error('the handler failed')
  })
  made.push(app)
  return app
}

const spanOf = (name: string) => otel.spans().find((s) => s.name === name)
const mirrored = (region: string) => ({ 'mcp-param-region': region })

describe('telemetry: values a tool opted in to', () => {
  it('recordsTheArgumentsAndResultOfAToolThatOptedInAndNothingOfOneThatDidNot', async () => {
    const client = fetchClient(server())
    await client.callTool('open', { region: 'eu-1' }, { headers: mirrored('eu-1') })
    await client.callTool('traced', { region: 'us-2', note: 'n' }, { headers: mirrored('us-2') })
    const open = spanOf('tools/call open')?.attributes ?? {}
    expect(open['gen_ai.tool.call.arguments']).toBeUndefined()
    expect(open['gen_ai.tool.call.result']).toBeUndefined()
    const traced = spanOf('tools/call traced')?.attributes ?? {}
    expect(JSON.parse(String(traced['gen_ai.tool.call.arguments']))).toEqual({ region: 'us-2', note: 'n' })
    expect(JSON.parse(String(traced['gen_ai.tool.call.result']))).toMatchObject({
      structuredContent: { region: 'us-2' },
    })
  })

  it('neverRecordsAQuestionAndItsRequestStateAsAResult', async () => {
    const client = fetchClient(server())
    const first = resultOf(await client.callTool('asks', { region: 'eu-1' }, { headers: mirrored('eu-1') }))
    expect(first.resultType).toBe('input_required')
    const asked = spanOf('tools/call asks')?.attributes ?? {}
    expect(asked['gen_ai.tool.call.result']).toBeUndefined()
    otel.reset()
    const extra = {
      requestState: first.requestState,
      inputResponses: { go: { action: 'accept', content: { ok: true } } },
    }
    await client.callTool('asks', { region: 'eu-1' }, { headers: mirrored('eu-1'), extra })
    const answered = spanOf('tools/call asks')?.attributes ?? {}
    expect(String(answered['gen_ai.tool.call.result'])).toContain('went')
    expect(String(answered['gen_ai.tool.call.result'])).not.toContain(String(first.requestState))
  })

  it('cutsARecordedValueAt8KiB', async () => {
    const client = fetchClient(server())
    const note = 'x'.repeat(20_000)
    await client.callTool('traced', { region: 'eu-1', note }, { headers: mirrored('eu-1') })
    const recorded = String(spanOf('tools/call traced')?.attributes['gen_ai.tool.call.arguments'])
    expect(recorded.length).toBe(8193)
    expect(recorded.endsWith('…')).toBe(true)
  })

  it('refusesATraceOptionItDoesNotKnow', () => {
    const app = server()
    expect(() => app.tool('bad', { description: 'd', trace: { args: true } as never }, () => 'x')).toThrow(
      "Tool 'bad': unknown option 'trace.args'.",
    )
    expect(() => app.tool('bad', { description: 'd', trace: { result: 'yes' } as never }, () => 'x')).toThrow(
      "Tool 'bad': trace.result must be a boolean.",
    )
  })
})

describe('telemetry: what is never recorded', () => {
  it('leavesNoTokenStateArgumentOrMirroredHeaderInSpansMetricsOrLogs', async () => {
    const logger = memoryLogger()
    const client = fetchClient(server(logger), { auth: bearerJsonAuth })
    const auth = bearer({ subject: 'SECRET-SUBJECT-3' })
    const token = String(auth.authorization).slice('Bearer '.length)
    const region = 'SECRET-REGION-7'
    const headers = { ...auth, ...mirrored(region) }
    await client.callTool('open', { region, note: 'SECRET-NOTE-1' }, { headers })
    await client.callTool('throws', { region }, { headers })
    const first = resultOf(await client.callTool('asks', { region }, { headers }))
    const state = String(first.requestState)
    const answer = { go: { action: 'accept', content: { ok: true } } }
    await client.callTool(
      'asks',
      { region },
      { headers, extra: { requestState: state, inputResponses: answer } },
    )
    await client.callTool(
      'asks',
      { region },
      { headers, extra: { requestState: state, inputResponses: answer } },
    )
    await client.callTool(
      'asks',
      { region },
      { headers, extra: { requestState: `${state}x`, inputResponses: answer } },
    )
    await client.callTool(
      'open',
      { region },
      { headers: { ...headers, 'mcp-param-region': 'SECRET-MISMATCH-5' } },
    )
    const recorded = JSON.stringify([
      otel.spans().map((s) => ({ name: s.name, attributes: s.attributes, links: s.links, events: s.events })),
      await otel.metrics(),
    ])
    const logs = logger.lines.join('')
    expect(logs).toContain('the handler failed')
    for (const secret of [token, 'SECRET-SUBJECT-3', region, 'SECRET-NOTE-1', 'SECRET-MISMATCH-5', state]) {
      expect(recorded).not.toContain(secret)
      expect(logs).not.toContain(secret)
    }
  })
})

describe('telemetry: handshake sessions', () => {
  it('reportsTheLiveSessionsOfTheSessionStoreAsAGauge', async () => {
    const handler = fetchFace(server())
    const post = async (body: Json, session?: string, method = 'POST') => {
      const response = await handler(
        new Request('http://127.0.0.1/mcp', {
          method,
          headers: {
            accept: 'application/json, text/event-stream',
            'content-type': 'application/json',
            ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
          },
          ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
        }),
      )
      await response.text()
      return response.headers.get('mcp-session-id') ?? undefined
    }
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    }
    const gauge = async () => {
      const metric = (await otel.metrics()).find((m) => m.descriptor.name === 'tessera.handshake.sessions')
      return metric?.dataPoints[0]?.value
    }
    const a = await post(initialize)
    await post(initialize)
    expect(await gauge()).toBe(2)
    expect(spanOf('initialize')?.attributes).toMatchObject({ 'mcp.method.name': 'initialize' })
    await post({}, a, 'DELETE')
    expect(await gauge()).toBe(1)
  })
})
